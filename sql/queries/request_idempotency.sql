-- name: RequestIdempotencyClaim :one
-- Claims key for a request of the workspace: a new key, one whose answer
-- is older than @expired_before (24 hours), or one whose request has been
-- running since before @abandoned_before (its process stopped) is taken
-- over and returned; a key in use returns no row.
INSERT INTO request_idempotency (workspace_id, key, method, path, body_hash, state, created_at)
VALUES (@workspace_id, @key, @method, @path, @body_hash, 'running', @created_at)
ON CONFLICT (workspace_id, key) DO UPDATE
SET method = EXCLUDED.method, path = EXCLUDED.path, body_hash = EXCLUDED.body_hash, state = 'running',
    status = 0, content_type = '', response = '', created_at = EXCLUDED.created_at
WHERE request_idempotency.created_at <= sqlc.arg(expired_before)::timestamptz
   OR (request_idempotency.state = 'running' AND request_idempotency.created_at <= sqlc.arg(abandoned_before)::timestamptz)
RETURNING key;

-- name: RequestIdempotencyGet :one
SELECT *
FROM request_idempotency
WHERE workspace_id = @workspace_id AND key = @key;

-- name: RequestIdempotencyFinish :exec
-- Keeps the first request's answer for its retries.
UPDATE request_idempotency
SET state = 'done', status = @status, content_type = @content_type, response = @response
WHERE workspace_id = @workspace_id AND key = @key AND state = 'running';

-- name: RequestIdempotencyRelease :exec
-- Gives a key back whose request kept no answer (a failure a retry may
-- mend), so that the next retry runs.
DELETE FROM request_idempotency
WHERE workspace_id = @workspace_id AND key = @key AND state = 'running';

-- name: RequestIdempotencyPrune :execrows
DELETE FROM request_idempotency
WHERE created_at <= sqlc.arg(before)::timestamptz;
