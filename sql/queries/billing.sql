-- name: CheckoutInsert :one
-- Inserts a checkout intent. With the idempotency key already used for the
-- campaign at this version it inserts nothing and returns no row.
INSERT INTO checkouts (id, workspace_id, campaign_id, mode, state, idempotency_key, policy_version, unit_cents,
    amount_cents, recipient_count, remaining_count, prepaid, shipping_states, processor, created_by, created_at, expires_at)
VALUES (@id, @workspace_id, @campaign_id, @mode, 'creating', @idempotency_key, @policy_version, @unit_cents,
    @amount_cents, @recipient_count, @recipient_count, @prepaid, COALESCE(sqlc.narg(shipping_states)::text[], '{}'), @processor, @created_by, @created_at, @expires_at)
ON CONFLICT (campaign_id, idempotency_key, policy_version) DO NOTHING
RETURNING id;

-- name: CheckoutItemInsert :exec
INSERT INTO checkout_items (workspace_id, checkout_id, position, recipient_id, unit_cents)
VALUES (@workspace_id, @checkout_id, @position, @recipient_id, @unit_cents);

-- name: CheckoutGetByKey :one
SELECT *
FROM checkouts
WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id AND idempotency_key = @idempotency_key AND policy_version = @policy_version;

-- name: CheckoutGet :one
SELECT *
FROM checkouts
WHERE workspace_id = @workspace_id AND id = @id;

-- name: CheckoutGetForUpdate :one
SELECT *
FROM checkouts
WHERE workspace_id = @workspace_id AND id = @id
FOR UPDATE;

-- name: CheckoutGetBySessionForUpdate :one
SELECT *
FROM checkouts
WHERE processor_session_id = @processor_session_id
FOR UPDATE;

-- name: CheckoutGetByPaymentRef :one
SELECT *
FROM checkouts
WHERE payment_ref = @payment_ref AND payment_ref <> '';

-- name: CheckoutInProgress :one
-- The campaign's checkout in progress (creating, open or paid), if any; the
-- caller holds the campaign's lock.
SELECT id, state, expires_at
FROM checkouts
WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id AND state IN ('creating', 'open', 'paid');

-- name: CheckoutPaidExists :one
-- Whether the campaign was ever paid at checkout.
SELECT EXISTS (SELECT 1 FROM checkouts WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id AND state IN ('paid', 'consumed'))::boolean;

-- name: CheckoutSetSession :execrows
-- Records the processor's session on a checkout still creating.
UPDATE checkouts
SET state = 'open', processor_session_id = @processor_session_id, url = @url
WHERE workspace_id = @workspace_id AND id = @id AND state = 'creating';

-- name: CheckoutClose :execrows
-- Expires or cancels a checkout that is not paid.
UPDATE checkouts
SET state = @state, closed_at = @closed_at
WHERE workspace_id = @workspace_id AND id = @id AND state IN ('creating', 'open');

-- name: CheckoutExpireStale :many
-- Expires the campaign's unpaid checkouts whose time is up.
UPDATE checkouts
SET state = 'expired', closed_at = @now
WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id AND state IN ('creating', 'open') AND expires_at <= @now
RETURNING id;

-- name: CheckoutMarkPaid :execrows
UPDATE checkouts
SET state = 'paid', paid_at = @paid_at, payment_ref = @payment_ref, invoice_url = @invoice_url, invoice_pdf = @invoice_pdf
WHERE workspace_id = @workspace_id AND id = @id AND state IN ('creating', 'open');

-- name: CheckoutSetLatePayment :exec
UPDATE checkouts
SET late_payment_ref = @late_payment_ref
WHERE workspace_id = @workspace_id AND id = @id;

-- name: CheckoutSetInvoice :exec
UPDATE checkouts
SET invoice_url = @invoice_url, invoice_pdf = @invoice_pdf
WHERE workspace_id = @workspace_id AND id = @id AND invoice_url = '';

-- name: CheckoutSetRefunded :exec
-- Records the processor's refunded total; it never goes down.
UPDATE checkouts
SET refunded_cents = GREATEST(refunded_cents, @refunded_cents)
WHERE workspace_id = @workspace_id AND id = @id;

-- name: CheckoutSetLaunch :exec
-- Records launch's progress: launch_cursor is the first position not
-- prepared yet (recipient_count once every position is).
UPDATE checkouts
SET launch_cursor = @launch_cursor, remaining_count = @remaining_count,
    state = CASE WHEN @remaining_count::integer = 0 AND state = 'paid' THEN 'consumed' ELSE state END
WHERE workspace_id = @workspace_id AND id = @id;

-- name: CheckoutList :many
-- A workspace's checkouts in a mode, newest first, created before before.
SELECT *
FROM checkouts
WHERE workspace_id = @workspace_id AND mode = @mode
    AND (sqlc.narg(campaign_id)::text IS NULL OR campaign_id = sqlc.narg(campaign_id))
    AND created_at < @before
ORDER BY created_at DESC, id DESC
LIMIT @row_limit;

-- name: CheckoutItemList :many
-- A checkout's positions with their gifts, in roster order, each with what
-- decides whether a refund may be asked for it: its gift link and its
-- current refund request (as GiftRefundLatestBySend).
SELECT i.position, i.recipient_id, i.unit_cents, i.send_id, i.error_code, i.error_message,
    r.name AS recipient_name, s.status AS send_status, s.total_cents AS send_total_cents,
    l.state AS link_state, l.expires_at AS link_expires_at,
    COALESCE((SELECT f.state FROM gift_refunds f WHERE f.send_id = i.send_id
     ORDER BY (f.state = 'rejected'), f.created_at DESC, f.id DESC LIMIT 1), '')::text AS refund_state
FROM checkout_items i
JOIN recipients r ON r.id = i.recipient_id
LEFT JOIN sends s ON s.id = i.send_id
LEFT JOIN gift_links l ON l.send_id = i.send_id
WHERE i.workspace_id = @workspace_id AND i.checkout_id = @checkout_id
ORDER BY i.position;

-- name: CheckoutItemRange :many
-- The positions from first, up to row_limit of them, for launch.
SELECT position, recipient_id, unit_cents, send_id, error_code, error_message
FROM checkout_items
WHERE workspace_id = @workspace_id AND checkout_id = @checkout_id AND position >= @first
ORDER BY position
LIMIT @row_limit;

-- name: CheckoutItemSetSend :execrows
UPDATE checkout_items
SET send_id = @send_id, prepared_at = @prepared_at
WHERE workspace_id = @workspace_id AND checkout_id = @checkout_id AND position = @position AND send_id IS NULL AND error_code = '';

-- name: CheckoutItemSetError :execrows
UPDATE checkout_items
SET error_code = @error_code, error_message = @error_message, prepared_at = @prepared_at
WHERE workspace_id = @workspace_id AND checkout_id = @checkout_id AND position = @position AND send_id IS NULL AND error_code = '';

-- name: CheckoutItemRemaining :one
-- How many positions of a checkout launch has not prepared yet, and the
-- first of them (0 when none).
SELECT count(*)::integer AS remaining, coalesce(min(position), 0)::integer AS first_pending
FROM checkout_items
WHERE workspace_id = @workspace_id AND checkout_id = @checkout_id AND send_id IS NULL AND error_code = '';

-- name: ProcessorEventInsert :one
-- Records a processor event; a replay inserts nothing and returns no row.
INSERT INTO processor_events (id, processor, type, object_id, outcome, received_at)
VALUES (@id, @processor, @type, @object_id, @outcome, @received_at)
ON CONFLICT (id) DO NOTHING
RETURNING id;

-- name: CampaignActivatePaid :exec
-- A draft or paused batch or single campaign paid at checkout turns on; its
-- policyVersion stays.
UPDATE campaigns
SET status = 'active', updated_at = @updated_at
WHERE id = @id AND status IN ('draft', 'paused');

-- name: TopupExpire :execrows
UPDATE topups
SET state = 'expired'
WHERE processor_session_id = @processor_session_id AND state = 'created';

-- name: CheckoutDeleteCreating :execrows
-- Removes a checkout intent the processor refused.
DELETE FROM checkouts
WHERE workspace_id = @workspace_id AND id = @id AND state = 'creating';

-- name: CheckoutLatestPaid :one
-- The campaign's paid checkout (at most one is in progress), else its
-- newest consumed one, locked for launch.
SELECT *
FROM checkouts
WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id AND state IN ('paid', 'consumed')
ORDER BY (state = 'paid') DESC, paid_at DESC, created_at DESC, id DESC
LIMIT 1
FOR UPDATE;

-- name: CheckoutLatestForCampaign :one
-- The campaign's checkout in progress, else its newest, for its preview.
SELECT id, state, amount_cents, url, expires_at
FROM checkouts
WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id
ORDER BY (state IN ('creating', 'open', 'paid')) DESC, created_at DESC, id DESC
LIMIT 1;

-- name: CheckoutForSend :one
-- The checkout that paid gift send_id (its card payment), within a workspace.
SELECT c.*
FROM checkout_items i
JOIN checkouts c ON c.id = i.checkout_id
WHERE i.send_id = @send_id AND c.workspace_id = @workspace_id;
