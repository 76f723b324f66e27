-- +goose Up
-- Distribution (docs/decisions/0078-gift-link-exports.md,
-- 0079-chunked-source-uploads.md, 0080-recipient-imports.md): gift-link CSV
-- exports kept as their parameters (the file is built at download), staged
-- chunked uploads of source CSVs, and source imports with their rows.

-- An export: who it selected and how; its CSV is built at download, which
-- rechecks access and each link's eligibility. Expires 24 hours after it
-- was made.
CREATE TABLE gift_link_exports (
    id                  text PRIMARY KEY CHECK (id LIKE 'exp\_%'),
    workspace_id        text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    campaign_id         text NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    -- {scope, preset, includeUnavailable, optionalColumns, columnPrefix, ...}.
    params              jsonb NOT NULL CHECK (jsonb_typeof(params) = 'object'),
    -- The roster people the export selected, in roster order.
    recipient_ids       text[] NOT NULL,
    -- The CSV's header row.
    columns             text[] NOT NULL CHECK (cardinality(columns) >= 1),
    filename            text NOT NULL,
    include_unavailable boolean NOT NULL,
    created_by          text NOT NULL DEFAULT '',
    created_at          timestamptz NOT NULL,
    expires_at          timestamptz NOT NULL
);

CREATE INDEX gift_link_exports_expiry ON gift_link_exports (expires_at);

-- A chunked upload of a source CSV, named by the caller's uploadId within
-- the workspace. Unfinished uploads expire after 6 hours; a finished one
-- waits for save_recipient_import, which consumes it.
CREATE TABLE source_uploads (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    id           text NOT NULL CHECK (char_length(id) BETWEEN 1 AND 100),
    campaign_id  text NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    part_count   integer NOT NULL CHECK (part_count BETWEEN 1 AND 384),
    total_bytes  bigint NOT NULL CHECK (total_bytes BETWEEN 1 AND 33554432),
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    completed_at timestamptz,
    PRIMARY KEY (workspace_id, id)
);

CREATE TABLE source_upload_parts (
    workspace_id text NOT NULL,
    upload_id    text NOT NULL,
    part_index   integer NOT NULL CHECK (part_index >= 0),
    data         bytea NOT NULL CHECK (length(data) BETWEEN 1 AND 150000),
    PRIMARY KEY (workspace_id, upload_id, part_index),
    FOREIGN KEY (workspace_id, upload_id) REFERENCES source_uploads (workspace_id, id) ON DELETE CASCADE
);

-- A finished source import of a campaign: the CSV's headers, the columns
-- kept for exports (original positions) and the summary it answered with.
CREATE TABLE recipient_imports (
    workspace_id    text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    campaign_id     text NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    id              text NOT NULL CHECK (char_length(id) BETWEEN 1 AND 100),
    headers         text[] NOT NULL CHECK (cardinality(headers) BETWEEN 1 AND 100),
    retained        integer[] NOT NULL,
    -- A digest of what was imported: a resend of the same importId must match.
    digest          text NOT NULL,
    summary         jsonb NOT NULL CHECK (jsonb_typeof(summary) = 'object'),
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, campaign_id, id)
);

-- One row of an import: its cells (all columns, by original position; a
-- removed column's cells are emptied) and the roster person it became.
CREATE TABLE recipient_import_rows (
    workspace_id text NOT NULL,
    campaign_id  text NOT NULL,
    import_id    text NOT NULL,
    row_id       text NOT NULL,
    position     integer NOT NULL CHECK (position >= 0),
    cells        text[] NOT NULL,
    recipient_id text NOT NULL DEFAULT '',
    PRIMARY KEY (workspace_id, campaign_id, import_id, row_id),
    FOREIGN KEY (workspace_id, campaign_id, import_id) REFERENCES recipient_imports (workspace_id, campaign_id, id) ON DELETE CASCADE
);

-- +goose Down
DROP TABLE recipient_import_rows;
DROP TABLE recipient_imports;
DROP TABLE source_upload_parts;
DROP TABLE source_uploads;
DROP TABLE gift_link_exports;
