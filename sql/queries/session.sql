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
       w.is_demo,
       u.email_verified_at
FROM memberships m
JOIN users u ON u.id = m.user_id
JOIN workspaces w ON w.id = m.workspace_id
WHERE m.workspace_id = @workspace_id AND m.user_id = @user_id;

-- name: SessionInsert :exec
INSERT INTO sessions (id, hash, user_id, workspace_id, created_at, expires_at)
VALUES (@id, @hash, @user_id, @workspace_id, @created_at, @expires_at);

-- name: SessionAuthenticate :one
-- One round trip: a live sign-in session by hash, joined to its person's
-- current membership of the session's workspace, to the workspace and to
-- the person (their name and email, as a gift's trail names them). No row
-- when the session is unknown, revoked or expired, or the person left.
-- The request is counted against the workspace's rate limit (rate_charge;
-- an empty rate_bucket counts nothing).
WITH found AS MATERIALIZED (
    SELECT s.id, s.user_id, s.workspace_id, m.role, w.mode, w.is_demo, u.name, u.email
    FROM sessions s
    JOIN memberships m ON m.workspace_id = s.workspace_id AND m.user_id = s.user_id
    JOIN workspaces w ON w.id = s.workspace_id
    JOIN users u ON u.id = s.user_id
    WHERE s.hash = @hash
      AND s.revoked_at IS NULL
      AND s.expires_at > sqlc.arg(now)::timestamptz
)
SELECT found.id, found.user_id, found.workspace_id, found.role, found.mode, found.is_demo, found.name, found.email,
       rc.rate_admitted::boolean AS rate_admitted, rc.rate_used::integer AS rate_used, rc.rate_reset_ms::bigint AS rate_reset_ms
FROM found
CROSS JOIN LATERAL rate_charge(found.workspace_id, @rate_bucket::text, @rate_units::integer, @rate_limit::integer, sqlc.narg(rate_at)::timestamptz) rc;

-- name: SessionLockLive :one
-- A live session by hash, locked for the rest of the transaction.
SELECT id, user_id, workspace_id
FROM sessions
WHERE hash = @hash
  AND revoked_at IS NULL
  AND expires_at > sqlc.arg(now)::timestamptz
FOR UPDATE;

-- name: SessionSetWorkspace :exec
UPDATE sessions
SET workspace_id = @workspace_id
WHERE id = @id;

-- name: SessionRevokeByHash :execrows
UPDATE sessions
SET revoked_at = sqlc.arg(now)::timestamptz
WHERE hash = @hash AND revoked_at IS NULL;

-- name: SessionRevokeByMember :exec
-- Ends every session a person has open in a workspace (they were removed).
UPDATE sessions
SET revoked_at = sqlc.arg(now)::timestamptz
WHERE workspace_id = @workspace_id AND user_id = @user_id AND revoked_at IS NULL;

-- name: SessionDeleteEndedBefore :execrows
-- Forgets sessions that expired or were revoked before @before.
DELETE FROM sessions
WHERE expires_at < sqlc.arg(before)::timestamptz
   OR revoked_at < sqlc.arg(before)::timestamptz;
