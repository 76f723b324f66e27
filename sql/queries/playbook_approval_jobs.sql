-- name: PlaybookApprovalJobQueued :one
-- Whether playbook campaign_id has an approval job queued or running that
-- has not taken its last look (a row queued less than a minute ago). Read
-- without a lock: adds that find one queue nothing and do not wait.
SELECT EXISTS (
    SELECT 1 FROM playbook_approval_jobs
    WHERE campaign_id = @campaign_id AND queued_at > now() - interval '1 minute'
)::boolean AS queued;

-- name: PlaybookApprovalJobClaim :one
-- Records that the caller queues playbook campaign_id's approval job: a row
-- when there was none or it had gone stale; no row when another transaction
-- has just claimed it (the conflict waits for that one to end).
INSERT INTO playbook_approval_jobs (campaign_id, queued_at)
VALUES (@campaign_id, now())
ON CONFLICT (campaign_id) DO UPDATE SET queued_at = excluded.queued_at
WHERE playbook_approval_jobs.queued_at <= now() - interval '1 minute'
RETURNING campaign_id;

-- name: PlaybookApprovalJobDone :exec
-- The approval job of playbook campaign_id has taken its last look: the
-- next person scheduled queues a new one.
DELETE FROM playbook_approval_jobs WHERE campaign_id = @campaign_id;
