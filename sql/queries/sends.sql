-- name: SendInsert :exec
INSERT INTO sends (
    id, workspace_id, campaign_id, recipient_id, product_id, status, mode, total_cents, funded_by,
    attribution, outcome, recipient_email, recipient_source_system, recipient_external_id,
    recipient_profile_url, recipient_name, auto_approved, approved_by, recipient, message,
    customization, prepared_by, decided_by, decided_at, gift_link_generation, created_at, updated_at
) VALUES (
    @id, @workspace_id, @campaign_id, @recipient_id, @product_id, @status, @mode, @total_cents, @funded_by,
    @attribution, @outcome, @recipient_email, @recipient_source_system, @recipient_external_id,
    @recipient_profile_url, @recipient_name, @auto_approved, @approved_by, @recipient, @message,
    @customization, @prepared_by, @decided_by, sqlc.narg(decided_at), @gift_link_generation, @created_at, @created_at
);

-- name: SendListByCampaign :many
SELECT *
FROM sends
WHERE campaign_id = @campaign_id
ORDER BY created_at, id;

-- name: SendCommitmentsByCampaign :one
-- What a campaign has committed: gifts that are not cancelled or declined,
-- their cost, and the cost of those created since month_start.
SELECT count(*)::int AS sent_count,
       coalesce(sum(total_cents), 0)::bigint AS spent_cents,
       coalesce(sum(total_cents) FILTER (WHERE created_at >= sqlc.arg(month_start)::timestamptz), 0)::bigint AS month_cents
FROM sends
WHERE campaign_id = @campaign_id AND status NOT IN ('cancelled', 'declined');

-- name: SendCommitmentsByWorkspace :many
SELECT campaign_id,
       count(*)::int AS sent_count,
       coalesce(sum(total_cents), 0)::bigint AS spent_cents
FROM sends
WHERE workspace_id = @workspace_id AND status NOT IN ('cancelled', 'declined')
GROUP BY campaign_id;

-- name: SendPriorForCampaigns :many
-- Repeats: for each person on the rosters of the campaigns without a gift
-- from their own campaign (only the waiting and scheduled ones when
-- queued_only), the latest gift another campaign of the workspace made in
-- mode to the same email, the same sourceSystem+externalId or the same
-- profile. Cancelled gifts never reached anyone and do not count. Each
-- identity is looked up through its own index, as SendPriorForRecipients
-- does.
SELECT r.id AS recipient_id, p.id AS send_id
FROM recipients r
CROSS JOIN LATERAL (
  SELECT m.id
  FROM (
    (SELECT s.id, s.created_at, s.campaign_id, s.mode, s.status FROM sends s
     WHERE r.email <> '' AND s.workspace_id = r.workspace_id AND s.recipient_email = r.email AND s.recipient_email <> '' OFFSET 0)
    UNION ALL
    (SELECT s.id, s.created_at, s.campaign_id, s.mode, s.status FROM sends s
     WHERE r.source_system <> '' AND s.workspace_id = r.workspace_id AND s.recipient_source_system = r.source_system
       AND s.recipient_external_id = r.external_id AND s.recipient_source_system <> '' OFFSET 0)
    UNION ALL
    (SELECT s.id, s.created_at, s.campaign_id, s.mode, s.status FROM sends s
     WHERE r.profile_url <> '' AND s.workspace_id = r.workspace_id AND s.recipient_profile_url = r.profile_url
       AND s.recipient_profile_url <> '' OFFSET 0)
  ) AS m
  WHERE m.campaign_id <> r.campaign_id AND m.mode = @mode::text AND m.status <> 'cancelled'
  ORDER BY m.created_at DESC, m.id DESC
  LIMIT 1
) p
WHERE r.campaign_id = ANY(@campaign_ids::text[])
  AND (NOT @queued_only::boolean OR r.approval_state IN ('waiting', 'scheduled'))
  AND NOT EXISTS (SELECT 1 FROM sends own WHERE own.recipient_id = r.id)
ORDER BY r.id;

-- name: SendGet :one
SELECT *
FROM sends
WHERE workspace_id = @workspace_id AND id = @id;

-- name: SendGetByRecipient :one
-- The person's gift that is not cancelled, if any.
SELECT *
FROM sends
WHERE recipient_id = @recipient_id AND status <> 'cancelled';

-- name: SendGetForUpdate :one
-- A gift, locked for a move of its status.
SELECT *
FROM sends
WHERE id = @id
FOR UPDATE;

-- name: SendUpdateStatus :exec
UPDATE sends
SET status = @status, carrier = @carrier, tracking_number = @tracking_number, tracking_url = @tracking_url,
    updated_at = @updated_at
WHERE id = @id;

-- name: SendList :many
-- A workspace's gifts, newest first, after the cursor (created_at, id)
-- when after_id is set; an empty filter matches every gift. list_sends and
-- get_tracking both page with it.
SELECT *
FROM sends
WHERE workspace_id = @workspace_id
  AND (@campaign_id::text = '' OR campaign_id = @campaign_id)
  AND (@send_id::text = '' OR id = @send_id)
  AND (@status::text = '' OR status = @status)
  AND (@mode::text = '' OR mode = @mode)
  AND (@external_id::text = '' OR attribution ->> 'externalId' = @external_id)
  AND (@after_id::text = '' OR (created_at, id) < (@after_created::timestamptz, @after_id))
ORDER BY created_at DESC, id DESC
LIMIT @row_limit;
