-- name: LoginAttemptInsert :one
INSERT INTO login_attempts (email, client_ip, attempted_at)
VALUES (@email, @client_ip, @attempted_at)
RETURNING id;

-- name: LoginAttemptCount :one
-- The attempts since @since up to and including @id: of the email at this
-- client address (the pair), of the address at any email, and of the email
-- from anywhere; with the oldest of the pair's and the address's (to tell
-- when the window frees up) and the latest before @id of the pair's and the
-- email's (to space attempts out).
SELECT
    count(*) FILTER (WHERE a.email = @email AND a.client_ip = sqlc.arg(client_ip)::text)::bigint AS pair_count,
    coalesce(min(a.attempted_at) FILTER (WHERE a.email = @email AND a.client_ip = sqlc.arg(client_ip)::text),
             sqlc.arg(since)::timestamptz)::timestamptz AS pair_oldest,
    coalesce(max(a.attempted_at) FILTER (WHERE a.email = @email AND a.client_ip = sqlc.arg(client_ip)::text AND a.id < @id),
             sqlc.arg(since)::timestamptz)::timestamptz AS pair_latest,
    count(*) FILTER (WHERE sqlc.arg(client_ip)::text <> '' AND a.client_ip = sqlc.arg(client_ip)::text)::bigint AS ip_count,
    coalesce(min(a.attempted_at) FILTER (WHERE sqlc.arg(client_ip)::text <> '' AND a.client_ip = sqlc.arg(client_ip)::text),
             sqlc.arg(since)::timestamptz)::timestamptz AS ip_oldest,
    count(*) FILTER (WHERE a.email = @email)::bigint AS email_count,
    coalesce(max(a.attempted_at) FILTER (WHERE a.email = @email AND a.id < @id),
             sqlc.arg(since)::timestamptz)::timestamptz AS email_latest
FROM login_attempts a
WHERE (a.email = @email OR (sqlc.arg(client_ip)::text <> '' AND a.client_ip = sqlc.arg(client_ip)::text))
  AND a.id <= @id AND a.attempted_at > sqlc.arg(since)::timestamptz;

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
