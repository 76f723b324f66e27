-- People on the web: sign-in sessions, failed sign-in throttling, team
-- invitations, the email outbox and workspace settings.

-- +goose Up

-- Set when a person proved they read mail at the address: accepting an
-- invitation sent there.
ALTER TABLE users ADD COLUMN email_verified_at timestamptz;

CREATE TABLE sessions (
    id           text PRIMARY KEY CHECK (id LIKE 'ses\_%'),
    -- SHA-256 of the session token (32 random bytes as hex); the token
    -- itself lives only in the person's cookie.
    hash         bytea NOT NULL UNIQUE CHECK (octet_length(hash) = 32),
    user_id      text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- The workspace the person is currently working in; they must be a
    -- member of it for the session to authenticate.
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    revoked_at   timestamptz
);

CREATE INDEX sessions_workspace_user ON sessions (workspace_id, user_id) WHERE revoked_at IS NULL;
CREATE INDEX sessions_expires_at ON sessions (expires_at);

-- Sign-in attempts that have not (yet) succeeded, for throttling per email
-- and per client address. A successful sign-in deletes its email's rows.
CREATE TABLE login_attempts (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email        text NOT NULL,
    -- '' when the address is unknown (then only the email is throttled).
    client_ip    text NOT NULL DEFAULT '',
    attempted_at timestamptz NOT NULL
);

CREATE INDEX login_attempts_email ON login_attempts (email, attempted_at);
CREATE INDEX login_attempts_client_ip ON login_attempts (client_ip, attempted_at) WHERE client_ip <> '';

CREATE TABLE invitations (
    id           text PRIMARY KEY CHECK (id LIKE 'inv\_%'),
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    email        text NOT NULL CHECK (email = lower(email)),
    role         text NOT NULL CHECK (role IN ('admin', 'member')),
    -- SHA-256 of the invitation token (32 random bytes as hex).
    hash         bytea NOT NULL UNIQUE CHECK (octet_length(hash) = 32),
    invited_by   text NOT NULL REFERENCES users (id),
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    accepted_at  timestamptz,
    accepted_by  text REFERENCES users (id),
    revoked_at   timestamptz,
    CHECK (accepted_at IS NULL OR revoked_at IS NULL)
);

-- One open (neither accepted nor revoked) invitation per email and workspace:
-- inviting again revokes the open one in the same transaction.
CREATE UNIQUE INDEX invitations_open_email ON invitations (workspace_id, email)
    WHERE accepted_at IS NULL AND revoked_at IS NULL;
CREATE INDEX invitations_workspace_created ON invitations (workspace_id, created_at DESC);

-- Mail to send, written in the transaction of the change it reports and
-- delivered by App.DeliverEmails. The body is cleared once the row is sent
-- or has failed for good, since it may carry a secret link.
CREATE TABLE email_outbox (
    id              text PRIMARY KEY CHECK (id LIKE 'eml\_%'),
    workspace_id    text REFERENCES workspaces (id) ON DELETE CASCADE,
    to_address      text NOT NULL,
    subject         text NOT NULL,
    body            text NOT NULL,
    state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
    attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at timestamptz NOT NULL,
    last_error      text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL,
    sent_at         timestamptz
);

CREATE INDEX email_outbox_pending ON email_outbox (next_attempt_at) WHERE state = 'pending';

-- Sender defaults of a workspace. No row means the defaults: the workspace's
-- name as company and the owner's name as sender name.
CREATE TABLE workspace_settings (
    workspace_id text PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    company      text NOT NULL CHECK (char_length(company) BETWEEN 1 AND 200),
    sender_name  text NOT NULL CHECK (char_length(sender_name) BETWEEN 1 AND 200),
    meeting_url  text NOT NULL DEFAULT '' CHECK (char_length(meeting_url) <= 500),
    website      text NOT NULL DEFAULT '' CHECK (char_length(website) <= 500),
    brand_color  text NOT NULL DEFAULT '' CHECK (brand_color = '' OR brand_color ~ '^#[0-9a-f]{6}$'),
    updated_at   timestamptz NOT NULL,
    updated_by   text REFERENCES users (id)
);

-- +goose Down
DROP TABLE workspace_settings;
DROP TABLE email_outbox;
DROP TABLE invitations;
DROP TABLE login_attempts;
DROP TABLE sessions;
ALTER TABLE users DROP COLUMN email_verified_at;
