-- +goose Up
-- Limits and scale: adds that do not queue a job each.
--
-- A row says that playbook campaign_id has an approval job queued or running
-- that has not yet taken its last look at the queue
-- (docs/decisions/0046-scheduled-approval-jobs.md). An add that schedules
-- someone reads it without a lock and queues no job of its own while it is
-- fresh: the job's last look locks the playbook FOR UPDATE, so it waits for
-- that add, which holds the playbook FOR SHARE, and then sees its person.
-- queued_at lets a row a lost job left behind go stale (after a minute).
CREATE TABLE playbook_approval_jobs (
    campaign_id text PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE,
    queued_at   timestamptz NOT NULL
);

-- +goose Down
DROP TABLE playbook_approval_jobs;
