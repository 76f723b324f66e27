-- Where gifts' money is (the send_money view): rows grouped by what
-- gift.Totals counts, so that every figure follows its one definition.

-- name: SendMoneyByCampaign :many
-- A campaign's gifts, test and live, by status, payment and whether their
-- cost came back.
SELECT status, funded_by, (credited OR refunded)::boolean AS money_back,
       count(*)::int AS gifts,
       coalesce(sum(total_cents), 0)::bigint AS cents
FROM send_money
WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id
GROUP BY status, funded_by, 3;

-- name: SendMoneyGet :one
-- One gift's money: whether and when its cost came back, to the balance
-- (a credit) or through a refund request; a time never reached reads as
-- the epoch.
SELECT m.status, m.funded_by, m.total_cents, m.credited, m.refunded,
       coalesce((SELECT max(l.created_at) FROM ledger_entries l WHERE l.send_id = m.id AND l.kind = 'credit'), 'epoch')::timestamptz AS credited_at,
       coalesce((SELECT max(r.decided_at) FROM gift_refunds r WHERE r.send_id = m.id AND r.state = 'refunded'), 'epoch')::timestamptz AS refunded_at,
       coalesce((SELECT max(e.created_at) FROM events e WHERE e.send_id = m.id AND e.type = 'send.status_changed'), 'epoch')::timestamptz AS status_at
FROM send_money m
WHERE m.workspace_id = @workspace_id AND m.id = @id;
