-- The prepaid balance: one balance per workspace per mode, the append-only
-- ledger that explains it, and the top-ups that fund it. Playbook gifts are
-- paid from it (a debit per gift; a credit back when a gift is cancelled).
-- The balance row is a cache of the ledger's sum, kept in the same
-- transaction as every ledger insert; its row lock serialises money moves.

-- +goose Up
CREATE TABLE balances (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    mode         text NOT NULL CHECK (mode IN ('test', 'live')),
    cents        bigint NOT NULL DEFAULT 0 CHECK (cents >= 0),
    updated_at   timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, mode)
);

-- Top-ups: a payment-processor session that credits the balance once it
-- completes. created -> completed | expired; never back.
CREATE TABLE topups (
    id                   text PRIMARY KEY CHECK (id LIKE 'top\_%'),
    workspace_id         text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    mode                 text NOT NULL CHECK (mode IN ('test', 'live')),
    cents                bigint NOT NULL CHECK (cents BETWEEN 2500 AND 2000000),
    idempotency_key      text NOT NULL CHECK (char_length(idempotency_key) BETWEEN 8 AND 150),
    -- Which processor made the session ("sandbox"; the billing issue adds "stripe").
    processor            text NOT NULL,
    processor_session_id text NOT NULL UNIQUE,
    processor_url        text NOT NULL,
    state                text NOT NULL DEFAULT 'created' CHECK (state IN ('created', 'completed', 'expired')),
    created_by           text NOT NULL,
    created_at           timestamptz NOT NULL,
    completed_at         timestamptz,
    UNIQUE (workspace_id, idempotency_key),
    CHECK ((state = 'completed') = (completed_at IS NOT NULL))
);

-- The ledger. cents is signed: topup and credit entries are positive, debit
-- entries negative, adjustments either (never zero). The balance of a
-- workspace and mode is the sum of its entries.
CREATE TABLE ledger_entries (
    id           text PRIMARY KEY CHECK (id LIKE 'led\_%'),
    -- Insertion order: lists are newest first by seq, which never ties.
    seq          bigint NOT NULL GENERATED ALWAYS AS IDENTITY UNIQUE,
    workspace_id text NOT NULL REFERENCES workspaces (id),
    mode         text NOT NULL CHECK (mode IN ('test', 'live')),
    kind         text NOT NULL CHECK (kind IN ('topup', 'debit', 'credit', 'adjustment')),
    cents        bigint NOT NULL CHECK (cents <> 0),
    send_id      text,
    campaign_id  text,
    topup_id     text REFERENCES topups (id),
    note         text NOT NULL DEFAULT '' CHECK (char_length(note) <= 500),
    created_at   timestamptz NOT NULL,
    CHECK (kind NOT IN ('topup', 'credit') OR cents > 0),
    CHECK (kind <> 'debit' OR (cents < 0 AND send_id IS NOT NULL)),
    CHECK ((kind = 'topup') = (topup_id IS NOT NULL))
);

-- One debit per gift and one entry per top-up, whatever races.
CREATE UNIQUE INDEX ledger_entries_debit_send ON ledger_entries (send_id) WHERE kind = 'debit';
CREATE UNIQUE INDEX ledger_entries_topup ON ledger_entries (topup_id) WHERE kind = 'topup';
CREATE INDEX ledger_entries_workspace_seq ON ledger_entries (workspace_id, mode, seq DESC);
CREATE INDEX ledger_entries_send ON ledger_entries (send_id) WHERE send_id IS NOT NULL;

-- The ledger is append-only: corrections are new entries (adjustments).
-- +goose StatementBegin
CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'ledger_entries is append-only';
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only();

-- +goose Down
DROP TABLE ledger_entries;
DROP FUNCTION ledger_entries_append_only();
DROP TABLE topups;
DROP TABLE balances;
