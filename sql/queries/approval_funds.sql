-- name: RecipientWaitingForFunds :many
-- The people of a workspace who wait only for funds on an active playbook
-- whose auto-approve rule is on, in queue order: the people a top-up
-- decides again (approval.RedecideForFunds).
SELECT r.campaign_id, r.id
FROM recipients r
JOIN campaigns c ON c.id = r.campaign_id
WHERE r.workspace_id = @workspace_id AND r.approval_state = 'waiting' AND r.approval_reason = 'low_balance'
  AND c.mode = 'always_on' AND c.status = 'active' AND (c.auto_approve ->> 'enabled')::boolean IS TRUE
ORDER BY r.queue_seq
LIMIT @max_people;

-- name: RecipientLockWaitingForFunds :one
-- One person RecipientWaitingForFunds listed, locked for a decision, while
-- they still wait for funds; no row once another write decided them.
SELECT *
FROM recipients
WHERE campaign_id = @campaign_id AND id = @id AND approval_state = 'waiting' AND approval_reason = 'low_balance'
FOR UPDATE;
