-- name: APIKeyInsert :execrows
-- Inserts the key only when its creator is a member of the workspace.
INSERT INTO api_keys (id, workspace_id, user_id, name, prefix, hash, created_at)
SELECT @id, m.workspace_id, m.user_id, @name, @prefix, @hash, @created_at
FROM memberships m
WHERE m.workspace_id = @workspace_id AND m.user_id = @user_id;

-- name: APIKeyAuthenticate :one
-- One round trip: finds a live key by hash, joins its creator's current
-- membership, the workspace and the creator (with the key's name, as a
-- gift's trail names who prepared it), stamps last_used_at at most once a minute,
-- and counts the request against the workspace's rate limit (rate_charge;
-- an empty rate_bucket counts nothing).
WITH k AS (
    SELECT live.id, live.workspace_id, live.user_id, live.name
    FROM api_keys live
    WHERE live.hash = @hash AND live.revoked_at IS NULL
), touch AS (
    UPDATE api_keys a
    SET last_used_at = sqlc.arg(now)::timestamptz
    FROM k
    WHERE a.id = k.id
      AND (a.last_used_at IS NULL OR a.last_used_at < sqlc.arg(now)::timestamptz - interval '1 minute')
), found AS MATERIALIZED (
    SELECT k.id, k.workspace_id, k.user_id, k.name, u.email, m.role, w.mode, w.is_demo
    FROM k
    JOIN memberships m ON m.workspace_id = k.workspace_id AND m.user_id = k.user_id
    JOIN workspaces w ON w.id = k.workspace_id
    JOIN users u ON u.id = k.user_id
)
SELECT found.id, found.workspace_id, found.user_id, found.name, found.email, found.role, found.mode, found.is_demo,
       rc.rate_admitted::boolean AS rate_admitted, rc.rate_used::integer AS rate_used, rc.rate_reset_ms::bigint AS rate_reset_ms
FROM found
CROSS JOIN LATERAL rate_charge(found.workspace_id, @rate_bucket::text, @rate_units::integer, @rate_limit::integer, sqlc.narg(rate_at)::timestamptz) rc;

-- name: APIKeyRevoke :execrows
-- Revoking an already revoked key keeps its first revocation time.
UPDATE api_keys
SET revoked_at = coalesce(revoked_at, sqlc.arg(now)::timestamptz)
WHERE id = @id AND workspace_id = @workspace_id;

-- name: APIKeyRevokeByUser :exec
UPDATE api_keys
SET revoked_at = sqlc.arg(now)::timestamptz
WHERE workspace_id = @workspace_id AND user_id = @user_id AND revoked_at IS NULL;

-- name: APIKeyListActive :many
-- The workspace's live keys with their creators, newest first.
SELECT k.id, k.name, k.prefix, k.user_id, u.name AS user_name, k.created_at, k.last_used_at
FROM api_keys k
JOIN users u ON u.id = k.user_id
WHERE k.workspace_id = @workspace_id AND k.revoked_at IS NULL
ORDER BY k.created_at DESC, k.id;

-- name: APIKeyGetCreator :one
SELECT user_id, revoked_at
FROM api_keys
WHERE id = @id AND workspace_id = @workspace_id;

-- name: APIKeyRevokeLive :one
-- Revokes a live key of the workspace, naming it; no row when the key is
-- not in the workspace or was already revoked.
UPDATE api_keys
SET revoked_at = sqlc.arg(now)::timestamptz
WHERE id = @id AND workspace_id = @workspace_id AND revoked_at IS NULL
RETURNING name;
