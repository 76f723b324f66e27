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

-- name: MembershipUpdateRole :execrows
UPDATE memberships
SET role = @role
WHERE workspace_id = @workspace_id AND user_id = @user_id;

-- name: MembershipDelete :execrows
DELETE FROM memberships
WHERE workspace_id = @workspace_id AND user_id = @user_id;

-- name: MembershipLockRole :one
-- The person's role in the workspace, locked for the rest of the transaction.
SELECT role
FROM memberships
WHERE workspace_id = @workspace_id AND user_id = @user_id
FOR UPDATE;

-- name: MembershipExists :one
SELECT EXISTS (
    SELECT 1 FROM memberships WHERE workspace_id = @workspace_id AND user_id = @user_id
) AS exists;

-- name: TeamMemberList :many
-- The workspace's people, in the order they joined.
SELECT u.id AS user_id, u.email, u.name, m.role, m.created_at AS joined_at
FROM memberships m
JOIN users u ON u.id = m.user_id
WHERE m.workspace_id = @workspace_id
ORDER BY m.created_at, u.id;

-- name: TeamMemberGet :one
SELECT u.id AS user_id, u.email, u.name, m.role, m.created_at AS joined_at
FROM memberships m
JOIN users u ON u.id = m.user_id
WHERE m.workspace_id = @workspace_id AND m.user_id = @user_id;

-- name: TeamMemberGetByEmail :one
SELECT u.id AS user_id
FROM memberships m
JOIN users u ON u.id = m.user_id
WHERE m.workspace_id = @workspace_id AND lower(u.email) = lower(@email);

-- name: WorkspaceListByUser :many
-- The workspaces a person belongs to, oldest membership first, with their role.
SELECT w.id, w.name, w.mode, w.is_demo, m.role
FROM memberships m
JOIN workspaces w ON w.id = m.workspace_id
WHERE m.user_id = @user_id
ORDER BY m.created_at, w.id;

-- name: WorkspaceSummaryGet :one
SELECT w.id, w.name, w.mode, w.is_demo, m.role
FROM memberships m
JOIN workspaces w ON w.id = m.workspace_id
WHERE m.workspace_id = @workspace_id AND m.user_id = @user_id;

-- name: WorkspaceSetLive :execrows
-- Switches a test workspace to live mode; a live one is left alone (no row).
UPDATE workspaces
SET mode = 'live'
WHERE id = @id AND mode = 'test';
