-- +goose Up
-- Where each gift's money is: the one reading of the gift's status, how it
-- was paid and whether its cost came back, that gift.Totals and gift.Money
-- count (docs/decisions/0119-money-after-a-decline.md). credited: the
-- balance got a credit for the gift (a balance-paid gift declined, or
-- refunded by staff); refunded: a refund request of the gift was refunded
-- (to the card or to the balance).
CREATE VIEW send_money AS
SELECT s.id, s.workspace_id, s.campaign_id, s.mode, s.status, s.funded_by, s.total_cents, s.outcome, s.created_at,
       EXISTS (SELECT 1 FROM ledger_entries l WHERE l.send_id = s.id AND l.kind = 'credit') AS credited,
       EXISTS (SELECT 1 FROM gift_refunds r WHERE r.send_id = s.id AND r.state = 'refunded') AS refunded
FROM sends s;

-- +goose Down
DROP VIEW send_money;
