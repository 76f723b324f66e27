-- name: QueueItemList :many
-- The approval queue of a workspace: the waiting and scheduled people of its
-- active playbooks, each with their playbook, in queue order. Blockers
-- depend on everyone ahead, so the queue is always read whole.
SELECT sqlc.embed(r), sqlc.embed(c)
FROM recipients r
JOIN campaigns c ON c.id = r.campaign_id
WHERE r.workspace_id = @workspace_id
  AND r.approval_state IN ('waiting', 'scheduled')
  AND c.mode = 'always_on' AND c.status = 'active'
ORDER BY r.queue_seq;

-- name: SendCommitmentsByCampaigns :many
-- SendCommitmentsByCampaign for several campaigns at once: gifts that are
-- not cancelled or declined, their cost, and the cost of those created
-- since month_start. Campaigns without gifts have no row.
SELECT campaign_id,
       count(*)::int AS sent_count,
       coalesce(sum(total_cents), 0)::bigint AS spent_cents,
       coalesce(sum(total_cents) FILTER (WHERE created_at >= sqlc.arg(month_start)::timestamptz), 0)::bigint AS month_cents
FROM sends
WHERE campaign_id = ANY(@campaign_ids::text[]) AND status NOT IN ('cancelled', 'declined')
GROUP BY campaign_id;

-- name: RecipientListSkipped :many
-- The skipped people of a workspace, or of one campaign when campaign_id is
-- set, newest skip first.
SELECT r.campaign_id, c.name AS campaign_name, r.id, r.name, r.email, r.company, r.title, r.source_system,
       r.external_id, r.profile_url, r.skip_reason, r.skipped_at::timestamptz AS skipped_at
FROM recipients r
JOIN campaigns c ON c.id = r.campaign_id
WHERE r.workspace_id = @workspace_id
  AND r.approval_state = 'skipped'
  AND (sqlc.narg(campaign_id)::text IS NULL OR r.campaign_id = sqlc.narg(campaign_id)::text)
ORDER BY r.skipped_at DESC, r.queue_seq DESC;
