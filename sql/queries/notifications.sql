-- name: NotificationChoiceList :many
-- What person user_id chose to get from workspace_id (kinds without a row
-- take their default).
SELECT kind, enabled
FROM notification_choices
WHERE workspace_id = @workspace_id AND user_id = @user_id
ORDER BY kind;

-- name: NotificationChoiceSet :exec
INSERT INTO notification_choices (workspace_id, user_id, kind, enabled, updated_at)
VALUES (@workspace_id, @user_id, @kind, @enabled, @updated_at)
ON CONFLICT (workspace_id, user_id, kind) DO UPDATE
SET enabled = excluded.enabled, updated_at = excluded.updated_at;

-- name: NotificationRecipients :many
-- Who may get an email of kind from workspace_id: its owners and admins,
-- and person user_id (a campaign's owner, or '') whatever their role, each
-- with their choice for kind (null: the default).
SELECT u.id AS user_id, u.email, u.name, m.role, c.enabled
FROM memberships m
JOIN users u ON u.id = m.user_id
LEFT JOIN notification_choices c
       ON c.workspace_id = m.workspace_id AND c.user_id = m.user_id AND c.kind = @kind
WHERE m.workspace_id = @workspace_id
  AND (m.role IN ('owner', 'admin') OR m.user_id = @user_id)
ORDER BY m.created_at, u.id;

-- name: NotificationSentClaim :exec
-- Makes sure the row of (workspace, campaign, kind) exists, as never sent.
INSERT INTO notification_sends (workspace_id, campaign_id, kind, last_sent_at)
VALUES (@workspace_id, @campaign_id, @kind, '1970-01-01T00:00:00Z')
ON CONFLICT DO NOTHING;

-- name: NotificationSentLock :one
-- When an email of kind about campaign_id last went out, locked until the
-- caller's transaction ends, so that two jobs never both send.
SELECT last_sent_at
FROM notification_sends
WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id AND kind = @kind
FOR UPDATE;

-- name: NotificationSentSet :exec
UPDATE notification_sends SET last_sent_at = @last_sent_at
WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id AND kind = @kind;

-- name: NotificationCampaign :one
-- The name and owner (the person who created it) of a campaign.
SELECT id, name, created_by
FROM campaigns
WHERE workspace_id = @workspace_id AND id = @id;

-- name: NotificationEndedGifts :many
-- The gifts of campaign_id a recipient declined or that expired after
-- @since and up to @until, oldest first, with who they were for.
SELECT e.send_id, (e.data->>'to')::text AS status, e.created_at, coalesce(r.name, '')::text AS recipient_name,
       coalesce(s.total_cents, 0)::bigint AS total_cents
FROM events e
LEFT JOIN sends s ON s.id = e.send_id
LEFT JOIN recipients r ON r.id = s.recipient_id
WHERE e.workspace_id = @workspace_id AND e.campaign_id = @campaign_id
  AND e.type = 'send.status_changed' AND e.data->>'to' IN ('declined', 'expired')
  AND e.created_at > @since AND e.created_at <= @until
ORDER BY e.created_at, e.seq
LIMIT 50;

-- name: NotificationDigestWorkspaces :many
-- The workspaces where someone chose the daily digest.
SELECT DISTINCT workspace_id
FROM notification_choices
WHERE kind = 'digest' AND enabled
ORDER BY workspace_id;

-- name: NotificationDigestCounts :one
-- What happened in workspace_id (mode) after @since: gifts approved, people
-- skipped, gifts declined and expired; and the balance now.
SELECT
  (SELECT count(*) FROM sends s WHERE s.workspace_id = @workspace_id AND s.mode = @mode AND s.created_at > @since)::bigint AS approved,
  (SELECT count(*) FROM recipients r WHERE r.workspace_id = @workspace_id AND r.approval_state = 'skipped' AND r.skipped_at > @since)::bigint AS skipped,
  (SELECT count(*) FROM events e WHERE e.workspace_id = @workspace_id AND e.mode = @mode AND e.type = 'send.status_changed'
     AND e.data->>'to' = 'declined' AND e.created_at > @since)::bigint AS declined,
  (SELECT count(*) FROM events e WHERE e.workspace_id = @workspace_id AND e.mode = @mode AND e.type = 'send.status_changed'
     AND e.data->>'to' = 'expired' AND e.created_at > @since)::bigint AS expired,
  coalesce((SELECT b.cents FROM balances b WHERE b.workspace_id = @workspace_id AND b.mode = @mode), 0)::bigint AS balance_cents;
