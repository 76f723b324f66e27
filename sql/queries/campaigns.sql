-- name: CampaignInsert :one
-- Inserts a campaign. With an idempotency key already used in the workspace
-- it inserts nothing and returns no row (the caller reads the existing one);
-- a concurrent insert with the same key waits for the first to commit.
INSERT INTO campaigns (
    id, workspace_id, mode, status, name, description, product_id, budget_cents, per_person_cents,
    max_sends, monthly_budget_cents, sender_name, sender_company, message, meeting_url,
    recipient_source, customization, attribution, idempotency_key, request_hash, created_by,
    created_at, updated_at
) VALUES (
    @id, @workspace_id, @mode, @status, @name, @description, @product_id, @budget_cents, @per_person_cents,
    @max_sends, sqlc.narg(monthly_budget_cents), @sender_name, @sender_company, @message, @meeting_url,
    @recipient_source, @customization, @attribution, sqlc.narg(idempotency_key), sqlc.narg(request_hash), @created_by,
    @created_at, @created_at
)
ON CONFLICT (workspace_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
RETURNING id;

-- name: CampaignGetByIdempotencyKey :one
SELECT id, request_hash
FROM campaigns
WHERE workspace_id = @workspace_id AND idempotency_key = @idempotency_key;

-- name: CampaignGet :one
SELECT *
FROM campaigns
WHERE workspace_id = @workspace_id AND id = @id;

-- name: CampaignGetForUpdate :one
-- Locks the campaign for the transaction: every write to a campaign or its
-- roster takes this lock first, so writes to one campaign are serialised.
SELECT *
FROM campaigns
WHERE workspace_id = @workspace_id AND id = @id
FOR UPDATE;

-- name: CampaignList :many
-- Newest first; mode filters when given.
SELECT *
FROM campaigns
WHERE workspace_id = @workspace_id
  AND (sqlc.narg(mode)::text IS NULL OR mode = sqlc.narg(mode)::text)
ORDER BY seq DESC;

-- name: CampaignUpdate :execrows
-- Compare-and-swap on policy_version: no row changes when the version moved.
UPDATE campaigns
SET mode                 = @mode,
    status               = @status,
    name                 = @name,
    description          = @description,
    product_id           = @product_id,
    budget_cents         = @budget_cents,
    per_person_cents     = @per_person_cents,
    max_sends            = @max_sends,
    monthly_budget_cents = sqlc.narg(monthly_budget_cents),
    sender_name          = @sender_name,
    sender_company       = @sender_company,
    message              = @message,
    meeting_url          = @meeting_url,
    recipient_source     = @recipient_source,
    customization        = @customization,
    attribution          = @attribution,
    policy_version       = @new_policy_version,
    updated_at           = @updated_at
WHERE workspace_id = @workspace_id
  AND id = @id
  AND policy_version = @expected_policy_version;

-- name: CampaignSetAutoApprove :execrows
-- Stores a playbook's auto-approve rule (core.AutoApprove as JSON, or null).
-- The auto-approve issue writes it; until then only tests do.
UPDATE campaigns
SET auto_approve = @auto_approve, updated_at = @updated_at
WHERE workspace_id = @workspace_id AND id = @id;

-- name: CampaignUpdateAutoApprove :execrows
-- Stores a playbook's auto-approve rule and monthly budget with a
-- compare-and-swap on policy_version: no row changes when the version moved.
UPDATE campaigns
SET auto_approve         = @auto_approve,
    monthly_budget_cents = sqlc.narg(monthly_budget_cents),
    policy_version       = @new_policy_version,
    updated_at           = @updated_at
WHERE workspace_id = @workspace_id
  AND id = @id
  AND policy_version = @expected_policy_version;
