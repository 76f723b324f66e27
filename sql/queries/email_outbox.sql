-- name: EmailOutboxInsert :exec
INSERT INTO email_outbox (id, workspace_id, to_address, subject, body, list_unsubscribe, list_unsubscribe_post, next_attempt_at, created_at)
VALUES (@id, @workspace_id, @to_address, @subject, @body, @list_unsubscribe, @list_unsubscribe_post, @created_at, @created_at);

-- name: EmailOutboxListPending :many
-- Emails not yet sent nor given up, oldest first: the ones whose delivery
-- job may be missing (queued before emails were River jobs).
SELECT id
FROM email_outbox
WHERE state = 'pending'
ORDER BY created_at, id;

-- name: EmailOutboxMarkSent :exec
-- Sent: the body, which may carry a secret link, is cleared. An email no
-- longer pending (already sent, or given up) is left as it is.
UPDATE email_outbox
SET state = 'sent', attempts = attempts + 1, sent_at = sqlc.arg(now)::timestamptz,
    body = '', last_error = '', list_unsubscribe = '', list_unsubscribe_post = ''
WHERE id = @id AND state = 'pending';

-- name: EmailOutboxMarkFailed :exec
-- A failed attempt of a pending email: tried again at @next_attempt_at, or
-- given up (state failed, body cleared) when @give_up.
UPDATE email_outbox
SET attempts = attempts + 1,
    last_error = @last_error,
    next_attempt_at = @next_attempt_at,
    state = CASE WHEN sqlc.arg(give_up)::boolean THEN 'failed' ELSE 'pending' END,
    body = CASE WHEN sqlc.arg(give_up)::boolean THEN '' ELSE body END,
    list_unsubscribe = CASE WHEN sqlc.arg(give_up)::boolean THEN '' ELSE list_unsubscribe END,
    list_unsubscribe_post = CASE WHEN sqlc.arg(give_up)::boolean THEN '' ELSE list_unsubscribe_post END
WHERE id = @id AND state = 'pending';

-- name: EmailOutboxGet :one
SELECT id, workspace_id, to_address, subject, body, state, attempts, next_attempt_at, last_error, created_at, sent_at,
       list_unsubscribe, list_unsubscribe_post
FROM email_outbox
WHERE id = @id;

-- name: EmailOutboxListByWorkspace :many
SELECT id, workspace_id, to_address, subject, body, state, attempts, next_attempt_at, last_error, created_at, sent_at,
       list_unsubscribe, list_unsubscribe_post
FROM email_outbox
WHERE workspace_id = @workspace_id
ORDER BY created_at, id;
