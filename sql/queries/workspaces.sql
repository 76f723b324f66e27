-- name: WorkspaceInsert :exec
INSERT INTO workspaces (id, name, mode, is_demo, created_at)
VALUES (@id, @name, @mode, @is_demo, @created_at);

-- name: WorkspaceGetByID :one
SELECT id, name, mode, is_demo, created_at
FROM workspaces
WHERE id = @id;

-- name: WorkspaceAnyExists :one
SELECT EXISTS (SELECT 1 FROM workspaces) AS exists;

-- name: WorkspaceLockFirstRun :exec
-- Serialises first-run bootstrap between processes for the transaction.
SELECT pg_advisory_xact_lock(7263513940235671001);

-- name: MembershipInsert :exec
INSERT INTO memberships (workspace_id, user_id, role, created_at)
VALUES (@workspace_id, @user_id, @role, @created_at);

-- name: MembershipGetRole :one
SELECT role
FROM memberships
WHERE workspace_id = @workspace_id AND user_id = @user_id;

-- name: MembershipUpdateRole :execrows
UPDATE memberships
SET role = @role
WHERE workspace_id = @workspace_id AND user_id = @user_id;

-- name: MembershipDelete :execrows
DELETE FROM memberships
WHERE workspace_id = @workspace_id AND user_id = @user_id;
