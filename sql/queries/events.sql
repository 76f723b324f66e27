-- name: EventInsert :exec
INSERT INTO events (id, workspace_id, type, mode, campaign_id, send_id, recipient_id, data, in_feed, created_at)
VALUES (@id, @workspace_id, @type, @mode, @campaign_id, @send_id, @recipient_id, @data, @in_feed, @created_at);

-- name: EventListBySend :many
-- A gift's events in the order they were recorded.
SELECT *
FROM events
WHERE send_id = @send_id
ORDER BY seq;

-- name: EventListByWorkspace :many
-- The workspace's newest events of every type, newest first (tests and
-- the feed issue read them).
SELECT *
FROM events
WHERE workspace_id = @workspace_id
ORDER BY seq DESC
LIMIT @max_rows;
