-- name: GiftRefundInsert :one
-- A new refund request; none when the gift already has one that is not
-- rejected (gift_refunds_open_once).
INSERT INTO gift_refunds (id, workspace_id, campaign_id, send_id, mode, state, reason, amount_cents, funded_by,
    requested_by, created_at, updated_at)
VALUES (@id, @workspace_id, @campaign_id, @send_id, @mode, 'requested', @reason, @amount_cents, @funded_by,
    @requested_by, @created_at, @created_at)
ON CONFLICT (send_id) WHERE state <> 'rejected' DO NOTHING
RETURNING *;

-- name: GiftRefundOpenBySend :one
-- A gift's refund request that is not rejected, if any.
SELECT *
FROM gift_refunds
WHERE send_id = @send_id AND state <> 'rejected';

-- name: GiftRefundLatestBySend :one
-- A gift's current refund request: the one not rejected, else the latest.
SELECT *
FROM gift_refunds
WHERE send_id = @send_id
ORDER BY (state = 'rejected'), created_at DESC, id DESC
LIMIT 1;

-- name: GiftRefundDecideLock :one
-- A gift's current refund request (as GiftRefundLatestBySend), locked for a staff decision.
SELECT *
FROM gift_refunds
WHERE send_id = @send_id
ORDER BY (state = 'rejected'), created_at DESC, id DESC
LIMIT 1
FOR UPDATE;

-- name: GiftRefundSetState :exec
UPDATE gift_refunds
SET state = @state, processor_refund_id = @processor_refund_id, decided_at = @decided_at, updated_at = @updated_at
WHERE id = @id;

-- name: GiftRefundListByCampaign :many
-- A campaign's refund history, newest first.
SELECT *
FROM gift_refunds
WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id
ORDER BY created_at DESC, (state = 'rejected'), id DESC;

-- name: SendSetFinalPrice :exec
UPDATE sends
SET final_price_cents = @final_price_cents, price_review = @price_review, updated_at = @updated_at
WHERE id = @id;

-- name: SendSetShippingStates :exec
UPDATE sends
SET shipping_states = @shipping_states
WHERE id = @id;

-- name: SendQuoteInsert :exec
INSERT INTO send_quotes (id, workspace_id, campaign_id, mode, policy_version, items, total_cents, created_at, expires_at)
VALUES (@id, @workspace_id, @campaign_id, @mode, @policy_version, @items, @total_cents, @created_at, @expires_at);

-- name: SendQuoteGetForUpdate :one
SELECT *
FROM send_quotes
WHERE workspace_id = @workspace_id AND id = @id
FOR UPDATE;

-- name: SendQuoteCommit :exec
UPDATE send_quotes
SET send_ids = @send_ids, committed_at = @committed_at, committed_by = @committed_by
WHERE id = @id;
