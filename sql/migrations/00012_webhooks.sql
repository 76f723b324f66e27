-- +goose Up
-- Webhooks (docs/decisions/0074-webhook-url-rule-and-sender.md,
-- 0075-webhook-deliveries-secrets-and-schedule.md). An endpoint's signing
-- secret is never stored: it is derived from the service's secret key, the
-- endpoint's ID and secret_salt, shown once at creation and derived again
-- to sign each delivery.
CREATE TABLE webhook_endpoints (
    id           text PRIMARY KEY CHECK (id LIKE 'whk\_%'),
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    url          text NOT NULL CHECK (char_length(url) BETWEEN 1 AND 2000),
    -- 1-10 of 'all' and the event type names.
    events       text[] NOT NULL CHECK (cardinality(events) BETWEEN 1 AND 10),
    secret_salt  bytea NOT NULL CHECK (length(secret_salt) = 16),
    created_by   text NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL,
    -- Set when a signed-in owner or admin removed it: no more deliveries.
    removed_at   timestamptz
);

CREATE INDEX webhook_endpoints_active ON webhook_endpoints (workspace_id, created_at) WHERE removed_at IS NULL;

-- One delivery of one event to one endpoint, made in the event's
-- transaction. A cycle is up to 8 attempts; a manual retry of a dead
-- delivery starts a new one.
CREATE TABLE webhook_deliveries (
    id           text PRIMARY KEY CHECK (id LIKE 'dlv\_%'),
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    endpoint_id  text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id     text NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    event_seq    bigint NOT NULL,
    type         text NOT NULL,
    -- gift: the feed's send.* events; playbook: playbook.person_waiting.
    source       text NOT NULL CHECK (source IN ('gift', 'playbook')),
    state        text NOT NULL DEFAULT 'pending'
        CHECK (state IN ('pending', 'retrying', 'delivered', 'dead', 'cancelled')),
    -- Attempts of the current cycle (at most 8), and of every cycle.
    attempts     integer NOT NULL DEFAULT 0 CHECK (attempts BETWEEN 0 AND 8),
    total_attempts integer NOT NULL DEFAULT 0,
    cycle        integer NOT NULL DEFAULT 1,
    -- When the next attempt is due; NULL once delivered, dead or cancelled.
    next_at      timestamptz,
    last_status  integer NOT NULL DEFAULT 0,
    last_error   text NOT NULL DEFAULT '' CHECK (char_length(last_error) <= 500),
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    UNIQUE (endpoint_id, event_id)
);

-- The deliveries list: an endpoint's deliveries of one source, newest first.
CREATE INDEX webhook_deliveries_list ON webhook_deliveries (endpoint_id, source, event_seq DESC);

-- +goose Down
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
