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
