-- +goose Up
-- Hardening: every REST write takes an Idempotency-Key header. The first
-- answer is kept with the workspace, key, method, path and body hash for
-- 24 hours and replayed to a retry; another body or route with the key is
-- 409 IDEMPOTENCY_CONFLICT; a retry while the first runs waits for it
-- (docs/decisions/0108-idempotency-keys-on-rest-writes.md).
CREATE TABLE request_idempotency (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    key          text NOT NULL,
    method       text NOT NULL,
    path         text NOT NULL,
    body_hash    bytea NOT NULL,
    state        text NOT NULL CHECK (state IN ('running', 'done')),
    status       integer NOT NULL DEFAULT 0,
    content_type text NOT NULL DEFAULT '',
    response     bytea NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, key)
);
CREATE INDEX request_idempotency_created ON request_idempotency (created_at);

-- +goose Down
DROP TABLE request_idempotency;
