-- name: EventInsert :one
INSERT INTO events (id, workspace_id, type, mode, campaign_id, send_id, recipient_id, data, in_feed, created_at)
VALUES (@id, @workspace_id, @type, @mode, @campaign_id, @send_id, @recipient_id, @data, @in_feed, @created_at)
RETURNING *;

-- name: EventListBySend :many
-- A gift's events in the order they were recorded.
SELECT *
FROM events
WHERE send_id = @send_id
ORDER BY seq;

-- name: EventListByWorkspace :many
-- The workspace's newest events of every type, newest first by seq
-- (tests read them; the feed reads EventFeedList).
SELECT *
FROM events
WHERE workspace_id = @workspace_id
ORDER BY seq DESC
LIMIT @max_rows;

-- name: EventFeedHorizon :one
-- The feed's horizon: the xmin of the current snapshot. Every transaction
-- with a lower ID has ended, so no event below it can still appear.
SELECT pg_snapshot_xmin(pg_current_snapshot())::xid8 AS horizon;

-- name: EventFeedList :many
-- The workspace's feed events after position (after_xid, after_seq) and
-- below horizon, in feed order, narrowed by the tracking filters (each
-- empty for all): type, campaign, gift, and the gift's current status and
-- attribution externalId.
SELECT e.id, e.xid, e.seq, e.type, e.mode, e.campaign_id, e.send_id, e.data, e.created_at
FROM events e
WHERE e.workspace_id = @workspace_id
  AND e.in_feed
  AND (e.xid, e.seq) > (@after_xid::xid8, @after_seq::bigint)
  AND e.xid < @horizon::xid8
  AND (@type::text = '' OR e.type = @type::text)
  AND (@campaign_id::text = '' OR e.campaign_id = @campaign_id::text)
  AND (@send_id::text = '' OR e.send_id = @send_id::text)
  AND ((@status::text = '' AND @external_id::text = '') OR EXISTS (
      SELECT 1
      FROM sends s
      WHERE s.workspace_id = e.workspace_id AND s.id = e.send_id
        AND (@status::text = '' OR s.status = @status::text)
        AND (@external_id::text = '' OR s.attribution ->> 'externalId' = @external_id::text)))
ORDER BY e.xid, e.seq
LIMIT @max_rows;

-- name: EventInsertMany :many
-- Several events of one transaction at once (core.RecordEvents), in the
-- order given: the arrays are zipped.
INSERT INTO events (id, workspace_id, type, mode, campaign_id, send_id, recipient_id, data, in_feed, created_at)
SELECT unnest(@ids::text[]), unnest(@workspace_ids::text[]), unnest(@types::text[]), unnest(@modes::text[]),
       unnest(@campaign_ids::text[]), unnest(@send_ids::text[]), unnest(@recipient_ids::text[]),
       unnest(@datas::jsonb[]), unnest(@in_feeds::boolean[]), @created_at
RETURNING *;
