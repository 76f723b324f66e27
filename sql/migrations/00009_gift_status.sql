-- +goose Up
-- A gift's life after approval
-- (docs/decisions/0061-gift-statuses-and-moves.md). The statuses are a
-- closed set; an approved gift waits for its address (awaiting_address: the
-- recipient confirms it through the gift link) or for production (ready: the
-- sender supplied it). The snapshot taken at creation says which; rows from
-- before the snapshot existed ask the roster.
UPDATE sends s
SET status = CASE
        WHEN coalesce(nullif(s.recipient ->> 'addressMode', ''), r.address_mode) = 'known' THEN 'ready'
        ELSE 'awaiting_address'
    END
FROM recipients r
WHERE r.id = s.recipient_id
  AND s.status NOT IN ('awaiting_address', 'ready', 'in_production', 'shipped', 'delivered',
                       'declined', 'expired', 'cancelled');

ALTER TABLE sends
    DROP CONSTRAINT sends_status_check,
    ADD CONSTRAINT sends_status CHECK (status IN ('awaiting_address', 'ready', 'in_production', 'shipped',
                                                 'delivered', 'declined', 'expired', 'cancelled')),
    -- Shipment tracking, set by staff with the move to shipped (or later).
    ADD COLUMN carrier         text NOT NULL DEFAULT '' CHECK (char_length(carrier) <= 100),
    ADD COLUMN tracking_number text NOT NULL DEFAULT '' CHECK (char_length(tracking_number) <= 200),
    ADD COLUMN tracking_url    text NOT NULL DEFAULT '' CHECK (char_length(tracking_url) <= 2000);

-- list_sends: a workspace's gifts, newest first.
CREATE INDEX sends_workspace_created ON sends (workspace_id, created_at DESC, id DESC);

-- +goose Down
DROP INDEX sends_workspace_created;
ALTER TABLE sends
    DROP CONSTRAINT sends_status,
    DROP COLUMN carrier, DROP COLUMN tracking_number, DROP COLUMN tracking_url;
UPDATE sends SET status = 'approved' WHERE status IN ('awaiting_address', 'ready');
ALTER TABLE sends ADD CONSTRAINT sends_status_check CHECK (status <> '');
