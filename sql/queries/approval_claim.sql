-- name: RecipientClaimScheduled :one
-- The oldest scheduled person of a campaign that no other transaction has
-- locked, outside skip, locked for a decision (FOR UPDATE SKIP LOCKED), so
-- that approval jobs running at once decide different people; no row when
-- every other scheduled person is locked. The caller holds the campaign
-- (shared). The workspace's queue index (recipients_queue) keeps it off the
-- rest of the roster.
SELECT *
FROM recipients
WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id AND approval_state = 'scheduled'
  AND NOT (id = ANY(coalesce(sqlc.narg(skip)::text[], '{}')))
ORDER BY queue_seq
LIMIT 1
FOR UPDATE SKIP LOCKED;

-- name: RecipientScheduledLeft :one
-- Whether a campaign still has a scheduled person outside skip: after
-- RecipientClaimScheduled found none, one locked by another transaction.
SELECT EXISTS (
    SELECT 1 FROM recipients
    WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id AND approval_state = 'scheduled'
      AND NOT (id = ANY(coalesce(sqlc.narg(skip)::text[], '{}')))
)::boolean AS left_scheduled;

-- name: RecipientClaimScheduledWait :one
-- RecipientClaimScheduled, but waiting for a scheduled person another
-- transaction holds instead of passing them by: once that transaction
-- ends, a person it decided is passed (no longer scheduled) and the next
-- is taken. For when only held people are left.
SELECT *
FROM recipients
WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id AND approval_state = 'scheduled'
  AND NOT (id = ANY(coalesce(sqlc.narg(skip)::text[], '{}')))
ORDER BY queue_seq
LIMIT 1
FOR UPDATE;

-- name: RecipientClaimForDecision :many
-- The people of ids who are still scheduled and that no other transaction
-- has locked, locked for a decision (FOR UPDATE SKIP LOCKED), in queue
-- order: a group commit's claim (approval.decideGroup). A person the
-- approval job holds, or one decided meanwhile, is left out.
SELECT *
FROM recipients
WHERE workspace_id = @workspace_id AND id = ANY(@ids::text[]) AND approval_state = 'scheduled'
ORDER BY queue_seq
FOR UPDATE SKIP LOCKED;

-- name: RecipientSetApprovedMany :exec
-- Stores an approval for each of ids at once (their gifts were created in
-- the same transaction): state is approved or auto_approved, no reason.
UPDATE recipients
SET approval_state = @approval_state, approval_reason = '', updated_at = @updated_at
WHERE workspace_id = @workspace_id AND id = ANY(@ids::text[]);
