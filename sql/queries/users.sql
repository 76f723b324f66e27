-- name: UserInsert :exec
INSERT INTO users (id, email, name, password_hash, created_at)
VALUES (@id, @email, @name, @password_hash, @created_at);

-- name: UserGetByEmail :one
SELECT id, email, name, password_hash, created_at
FROM users
WHERE lower(email) = lower(@email);

-- name: UserGetByID :one
SELECT id, email, name, password_hash, created_at
FROM users
WHERE id = @id;

-- name: UserSignInLookup :one
-- The person with the email, their password hash and the workspace a new
-- session starts in: their oldest membership ('' when they have none).
SELECT u.id,
       u.password_hash,
       coalesce((SELECT m.workspace_id
                 FROM memberships m
                 WHERE m.user_id = u.id
                 ORDER BY m.created_at, m.workspace_id
                 LIMIT 1), '')::text AS workspace_id
FROM users u
WHERE lower(u.email) = lower(@email);

-- name: UserMarkEmailVerified :exec
UPDATE users
SET email_verified_at = coalesce(email_verified_at, sqlc.arg(now)::timestamptz)
WHERE id = @id;
