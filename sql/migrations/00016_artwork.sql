-- +goose Up
-- Artwork assets (docs/decisions/0081-artwork-storage-and-limits.md,
-- 0082-artwork-types-and-access.md, 0084-portraits.md). The file itself is
-- in the blob store under <workspace_id>/<id>; this row is its record. An
-- upload first records the asset as pending (counting against the
-- workspace's storage), writes the blob outside any transaction, then marks
-- it ready; only a ready asset can be named by a campaign, a person or a
-- link's branding.
CREATE TABLE artwork_assets (
    id           text PRIMARY KEY CHECK (id LIKE 'asset\_%'),
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    filename     text NOT NULL CHECK (filename <> '' AND char_length(filename) <= 180),
    mime         text NOT NULL CHECK (mime IN ('image/png', 'image/jpeg', 'image/webp', 'application/pdf')),
    bytes        bigint NOT NULL CHECK (bytes > 0),
    -- purpose: artwork (the default), logo or portrait.
    purpose      text NOT NULL CHECK (purpose IN ('artwork', 'logo', 'portrait')),
    -- width and height from the image's header; 0 for a PDF.
    width        integer NOT NULL DEFAULT 0 CHECK (width >= 0),
    height       integer NOT NULL DEFAULT 0 CHECK (height >= 0),
    -- source_url is the address a photo was imported from; '' for uploads.
    source_url   text NOT NULL DEFAULT '',
    state        text NOT NULL CHECK (state IN ('pending', 'ready')),
    created_by   text NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL
);

CREATE INDEX artwork_assets_workspace ON artwork_assets (workspace_id, created_at DESC, id);

-- A workspace's artwork counts for one UTC day. The row is also the lock
-- that makes the daily and storage limits hold across instances: every
-- upload and import takes it (INSERT ... ON CONFLICT DO UPDATE) before it
-- counts.
CREATE TABLE artwork_days (
    workspace_id  text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    day           date NOT NULL,
    uploads       integer NOT NULL DEFAULT 0 CHECK (uploads >= 0),
    attempts      integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    photo_imports integer NOT NULL DEFAULT 0 CHECK (photo_imports >= 0),
    PRIMARY KEY (workspace_id, day)
);

-- A gift's portrait: '' for gifts whose product needs none; otherwise
-- awaiting_photo, awaiting_approval or approved. portrait_version starts at
-- 1 and increases on every change.
ALTER TABLE sends
    ADD COLUMN portrait_state       text NOT NULL DEFAULT ''
        CHECK (portrait_state IN ('', 'awaiting_photo', 'awaiting_approval', 'approved')),
    ADD COLUMN portrait_version     integer NOT NULL DEFAULT 0 CHECK (portrait_version >= 0),
    ADD COLUMN portrait_asset_id    text NOT NULL DEFAULT '',
    ADD COLUMN portrait_source_url  text NOT NULL DEFAULT '',
    ADD COLUMN portrait_approved_at timestamptz;

-- +goose Down
ALTER TABLE sends
    DROP COLUMN portrait_approved_at,
    DROP COLUMN portrait_source_url,
    DROP COLUMN portrait_asset_id,
    DROP COLUMN portrait_version,
    DROP COLUMN portrait_state;
DROP TABLE artwork_days;
DROP TABLE artwork_assets;
