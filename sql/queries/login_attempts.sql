-- name: LoginAttemptInsert :one
INSERT INTO login_attempts (email, client_ip, attempted_at)
VALUES (@email, @client_ip, @attempted_at)
RETURNING id;

-- name: LoginAttemptCount :one
-- The attempts up to and including @id since @since, per email and per
-- client address, with the oldest of each (to tell when the window frees up).
SELECT
    (SELECT count(*)
     FROM login_attempts a
     WHERE a.email = @email AND a.id <= @id AND a.attempted_at > sqlc.arg(since)::timestamptz)::bigint AS email_count,
    (SELECT coalesce(min(a.attempted_at), sqlc.arg(since)::timestamptz)
     FROM login_attempts a
     WHERE a.email = @email AND a.id <= @id AND a.attempted_at > sqlc.arg(since)::timestamptz)::timestamptz AS email_oldest,
    (SELECT count(*)
     FROM login_attempts a
     WHERE sqlc.arg(client_ip)::text <> '' AND a.client_ip = sqlc.arg(client_ip)::text
       AND a.id <= @id AND a.attempted_at > sqlc.arg(since)::timestamptz)::bigint AS ip_count,
    (SELECT coalesce(min(a.attempted_at), sqlc.arg(since)::timestamptz)
     FROM login_attempts a
     WHERE sqlc.arg(client_ip)::text <> '' AND a.client_ip = sqlc.arg(client_ip)::text
       AND a.id <= @id AND a.attempted_at > sqlc.arg(since)::timestamptz)::timestamptz AS ip_oldest;

-- name: LoginAttemptDelete :exec
DELETE FROM login_attempts
WHERE id = @id;

-- name: LoginAttemptDeleteByEmail :exec
-- A successful sign-in forgives its email's failures (not its address's).
DELETE FROM login_attempts
WHERE email = @email;

-- name: LoginAttemptDeleteBefore :execrows
DELETE FROM login_attempts
WHERE attempted_at <= sqlc.arg(before)::timestamptz;
