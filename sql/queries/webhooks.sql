-- name: WebhookEndpointInsert :one
INSERT INTO webhook_endpoints (id, workspace_id, url, events, secret_salt, created_by, created_at)
VALUES (@id, @workspace_id, @url, @events, @secret_salt, @created_by, @created_at)
RETURNING *;

-- name: WebhookEndpointCountActive :one
SELECT count(*)::int
FROM webhook_endpoints
WHERE workspace_id = @workspace_id AND removed_at IS NULL;

-- name: WebhookEndpointList :many
-- A workspace's active endpoints, oldest first.
SELECT *
FROM webhook_endpoints
WHERE workspace_id = @workspace_id AND removed_at IS NULL
ORDER BY created_at, id;

-- name: WebhookEndpointGet :one
SELECT *
FROM webhook_endpoints
WHERE workspace_id = @workspace_id AND id = @id;

-- name: WebhookEndpointRemove :execrows
UPDATE webhook_endpoints
SET removed_at = @removed_at
WHERE workspace_id = @workspace_id AND id = @id AND removed_at IS NULL;

-- name: WebhookDeliveriesCancelPending :execrows
-- Removing an endpoint ends the deliveries still waiting for an attempt.
UPDATE webhook_deliveries
SET state = 'cancelled', next_at = NULL, updated_at = @updated_at
WHERE endpoint_id = @endpoint_id AND state IN ('pending', 'retrying');

-- name: WebhookDeliveriesForEvent :many
-- The deliveries of a new event: one per active endpoint of its workspace
-- that wants its type (or all), created with it. Endpoints created in the
-- event's own transaction or later are not included by a concurrent event:
-- only events created after the endpoint exists are sent.
INSERT INTO webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_seq, type, source, next_at,
                                created_at, updated_at)
SELECT 'dlv_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 24), e.workspace_id, w.id, e.id, e.seq, e.type,
       CASE WHEN e.type = 'playbook.person_waiting' THEN 'playbook' ELSE 'gift' END,
       sqlc.arg(now)::timestamptz, sqlc.arg(now)::timestamptz, sqlc.arg(now)::timestamptz
FROM events e
JOIN webhook_endpoints w ON w.workspace_id = e.workspace_id
WHERE e.id = @event_id
  AND w.removed_at IS NULL
  AND w.created_at <= e.created_at
  AND (e.type = ANY (w.events) OR 'all' = ANY (w.events))
RETURNING id, endpoint_id;

-- name: WebhookDeliveryGet :one
-- A delivery with its endpoint and event, for an attempt.
SELECT sqlc.embed(d), sqlc.embed(w), sqlc.embed(e)
FROM webhook_deliveries d
JOIN webhook_endpoints w ON w.id = d.endpoint_id
JOIN events e ON e.id = d.event_id
WHERE d.id = @id;

-- name: WebhookDeliveryGetForUpdate :one
SELECT *
FROM webhook_deliveries
WHERE id = @id
FOR UPDATE;

-- name: WebhookDeliveryRecordAttempt :exec
UPDATE webhook_deliveries
SET state = @state, attempts = @attempts, total_attempts = total_attempts + 1, next_at = @next_at,
    last_status = @last_status, last_error = @last_error, updated_at = @updated_at
WHERE id = @id;

-- name: WebhookDeliveryRestart :exec
-- A manual retry: a new cycle of up to 8 attempts, due now.
UPDATE webhook_deliveries
SET state = 'pending', attempts = 0, cycle = cycle + 1, next_at = sqlc.arg(now)::timestamptz, updated_at = sqlc.arg(now)::timestamptz
WHERE id = @id;

-- name: WebhookDeliveryList :many
-- An endpoint's deliveries of one source, newest first, before a sequence.
SELECT *
FROM webhook_deliveries
WHERE endpoint_id = @endpoint_id AND source = @source
  AND (sqlc.arg(before_seq)::bigint = 0 OR event_seq < sqlc.arg(before_seq)::bigint)
ORDER BY event_seq DESC
LIMIT @max_rows;

-- name: WebhookDeliveriesDue :many
-- Deliveries waiting for an attempt whose job may be gone (serve's start).
SELECT id, next_at, cycle, attempts
FROM webhook_deliveries
WHERE state IN ('pending', 'retrying')
ORDER BY next_at;

-- name: WorkspaceLockForWebhooks :exec
-- Serializes endpoint creation per workspace (the MaxEndpoints count).
SELECT pg_advisory_xact_lock(hashtextextended('giftwell webhooks ' || @workspace_id::text, 0));

-- name: WebhookDeliveriesForEvents :many
-- WebhookDeliveriesForEvent for several new events at once.
INSERT INTO webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_seq, type, source, next_at,
                                created_at, updated_at)
SELECT 'dlv_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 24), e.workspace_id, w.id, e.id, e.seq, e.type,
       CASE WHEN e.type = 'playbook.person_waiting' THEN 'playbook' ELSE 'gift' END,
       sqlc.arg(now)::timestamptz, sqlc.arg(now)::timestamptz, sqlc.arg(now)::timestamptz
FROM events e
JOIN webhook_endpoints w ON w.workspace_id = e.workspace_id
WHERE e.id = ANY(@event_ids::text[])
  AND w.removed_at IS NULL
  AND w.created_at <= e.created_at
  AND (e.type = ANY (w.events) OR 'all' = ANY (w.events))
RETURNING id, endpoint_id;
