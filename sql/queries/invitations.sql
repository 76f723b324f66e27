-- name: InvitationInsert :exec
INSERT INTO invitations (id, workspace_id, email, role, hash, invited_by, created_at, expires_at)
VALUES (@id, @workspace_id, @email, @role, @hash, @invited_by, @created_at, @expires_at);

-- name: InvitationRevokeOpenByEmail :exec
-- Replacing an invitation: the email's open invitation in the workspace is revoked.
UPDATE invitations
SET revoked_at = sqlc.arg(now)::timestamptz
WHERE workspace_id = @workspace_id AND email = @email
  AND accepted_at IS NULL AND revoked_at IS NULL;

-- name: InvitationList :many
-- The workspace's latest invitations, newest first.
SELECT i.id, i.email, i.role, i.invited_by, u.name AS invited_by_name,
       i.created_at, i.expires_at, i.accepted_at, i.revoked_at
FROM invitations i
JOIN users u ON u.id = i.invited_by
WHERE i.workspace_id = @workspace_id
ORDER BY i.created_at DESC, i.id DESC
LIMIT sqlc.arg(max_rows)::integer;

-- name: InvitationLock :one
-- An invitation of the workspace, locked for the rest of the transaction.
SELECT id, email, role, expires_at, accepted_at, revoked_at
FROM invitations
WHERE workspace_id = @workspace_id AND id = @id
FOR UPDATE;

-- name: InvitationRevoke :exec
UPDATE invitations
SET revoked_at = sqlc.arg(now)::timestamptz
WHERE id = @id;

-- name: InvitationGetByHash :one
-- What the invitation page shows: the invitation by token hash, its
-- workspace's name, its inviter's name and whether the invited email already
-- has an account.
SELECT i.id, i.workspace_id, w.name AS workspace_name, i.email, i.role,
       u.name AS invited_by_name, i.expires_at, i.accepted_at, i.revoked_at,
       EXISTS (SELECT 1 FROM users x WHERE lower(x.email) = i.email) AS account_exists
FROM invitations i
JOIN workspaces w ON w.id = i.workspace_id
JOIN users u ON u.id = i.invited_by
WHERE i.hash = @hash;

-- name: InvitationMarkAccepted :exec
UPDATE invitations
SET accepted_at = sqlc.arg(now)::timestamptz, accepted_by = @accepted_by
WHERE id = @id;
