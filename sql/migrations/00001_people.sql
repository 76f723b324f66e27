-- People: workspaces, users, memberships and workspace API keys.

-- +goose Up
CREATE TABLE workspaces (
    id         text PRIMARY KEY CHECK (id LIKE 'ws\_%'),
    name       text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
    mode       text NOT NULL DEFAULT 'test' CHECK (mode IN ('test', 'live')),
    is_demo    boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL
);

CREATE TABLE users (
    id            text PRIMARY KEY CHECK (id LIKE 'usr\_%'),
    -- Stored trimmed and lowercased by core; the unique index enforces it
    -- case-insensitively all the same.
    email         text NOT NULL CHECK (email = lower(email)),
    name          text NOT NULL,
    password_hash text NOT NULL,
    created_at    timestamptz NOT NULL
);

CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE memberships (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id      text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role         text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
    created_at   timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, user_id)
);

-- At most one owner per workspace (core creates exactly one with the workspace).
CREATE UNIQUE INDEX memberships_one_owner ON memberships (workspace_id) WHERE role = 'owner';
CREATE INDEX memberships_user_id ON memberships (user_id);

CREATE TABLE api_keys (
    id           text PRIMARY KEY CHECK (id LIKE 'key\_%'),
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    -- The creator: the key acts as this user with their current role.
    user_id      text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         text NOT NULL,
    -- The key's first 8 characters, for display.
    prefix       text NOT NULL,
    -- SHA-256 of the full key; the key itself is never stored.
    hash         bytea NOT NULL UNIQUE CHECK (octet_length(hash) = 32),
    created_at   timestamptz NOT NULL,
    last_used_at timestamptz,
    revoked_at   timestamptz
);

CREATE INDEX api_keys_workspace_user ON api_keys (workspace_id, user_id);

-- +goose Down
DROP TABLE api_keys;
DROP TABLE memberships;
DROP TABLE users;
DROP TABLE workspaces;
