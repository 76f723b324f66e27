-- name: SessionGet :one
-- The person behind a principal, their current role and their workspace, for
-- GET /session. No row when the membership is gone.
SELECT u.id   AS user_id,
       u.name AS user_name,
       u.email,
       m.role,
       w.id   AS workspace_id,
       w.name AS workspace_name,
       w.mode,
       w.is_demo
FROM memberships m
JOIN users u ON u.id = m.user_id
JOIN workspaces w ON w.id = m.workspace_id
WHERE m.workspace_id = @workspace_id AND m.user_id = @user_id;
