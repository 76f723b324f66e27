-- name: RecipientSetApproval :execrows
-- Moves a playbook person to a new approval state; reason only for waiting.
UPDATE recipients
SET approval_state = @approval_state, approval_reason = @approval_reason, updated_at = @updated_at
WHERE campaign_id = @campaign_id AND id = @id;

-- name: RecipientSkip :execrows
UPDATE recipients
SET approval_state = 'skipped', approval_reason = '', skip_reason = @skip_reason, skipped_by = @skipped_by,
    skipped_at = @skipped_at, updated_at = @skipped_at
WHERE campaign_id = @campaign_id AND id = @id;

-- name: RecipientUnskip :execrows
-- Clears a skip: the person waits again, for a person to approve.
UPDATE recipients
SET approval_state = 'waiting', approval_reason = @approval_reason, skip_reason = '', skipped_by = '',
    skipped_at = NULL, updated_at = @updated_at
WHERE campaign_id = @campaign_id AND id = @id AND approval_state = 'skipped';

-- name: TxSetLockTimeout :exec
-- Sets how long the transaction's statements wait for a lock ('0' waits
-- for ever); adding a person waits only briefly for the playbook.
SELECT set_config('lock_timeout', @timeout::text, true);

-- name: RecipientGetForApproval :one
-- One roster person with their approval state; the caller has locked the campaign.
SELECT *
FROM recipients
WHERE campaign_id = @campaign_id AND id = @id;

-- name: CampaignListScheduled :many
-- Active playbooks with scheduled people.
SELECT c.workspace_id, c.id
FROM campaigns c
WHERE c.mode = 'always_on' AND c.status = 'active'
  AND EXISTS (SELECT 1 FROM recipients r WHERE r.campaign_id = c.id AND r.approval_state = 'scheduled')
ORDER BY c.id;

-- name: CampaignListScheduledBefore :many
-- Active playbooks with people scheduled before before: people an add
-- handed to a group commit that never decided them (its process stopped).
SELECT c.workspace_id, c.id
FROM campaigns c
WHERE c.mode = 'always_on' AND c.status = 'active'
  AND EXISTS (SELECT 1 FROM recipients r WHERE r.campaign_id = c.id AND r.approval_state = 'scheduled' AND r.updated_at < @before)
ORDER BY c.id;
