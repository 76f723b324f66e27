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
