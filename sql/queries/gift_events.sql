-- name: GiftEventList :many
-- The feed events of one gift of a workspace, in feed order (oldest first),
-- at most max_rows, for the web app's gift page. A snapshot read, not a
-- cursor: no horizon is needed.
SELECT e.id, e.xid, e.seq, e.type, e.mode, e.campaign_id, e.send_id, e.data, e.created_at
FROM events e
WHERE e.workspace_id = @workspace_id
  AND e.send_id = @send_id
  AND e.in_feed
ORDER BY e.xid, e.seq
LIMIT @max_rows;

-- name: GiftEventRecent :many
-- The workspace's newest feed events, newest first, with the name of the
-- gift's recipient now (the web app's home page).
SELECT e.id, e.xid, e.seq, e.type, e.mode, e.campaign_id, e.send_id, e.data, e.created_at,
       s.recipient_name
FROM events e
JOIN sends s ON s.id = e.send_id AND s.workspace_id = e.workspace_id
WHERE e.workspace_id = @workspace_id
  AND e.in_feed
ORDER BY e.xid DESC, e.seq DESC
LIMIT @max_rows;

-- name: GiftAwaitingAddressCounts :one
-- The workspace's gifts that wait for their recipient's address, and how
-- many of them have an active link that ends in [now, soon).
SELECT count(*)::int AS awaiting,
       (count(*) FILTER (WHERE l.state = 'active' AND l.expires_at > @now::timestamptz
                         AND l.expires_at <= @soon::timestamptz))::int AS expiring_soon
FROM sends s
LEFT JOIN gift_links l ON l.send_id = s.id
WHERE s.workspace_id = @workspace_id
  AND s.status = 'awaiting_address';
