-- The event feed's order (GET /events, list_tracking_events).
--
-- seq alone cannot order a feed that readers trust: a transaction that took
-- seq 5 may commit after one that took seq 6, and a reader that already
-- returned 6 would skip 5. Each event therefore keeps the ID of the
-- transaction that wrote it (xid, pg_current_xact_id()), the feed is
-- ordered by (xid, seq), and a reader returns only events whose xid is
-- below its snapshot's xmin: every transaction that could still add an
-- event at or before a returned position has ended. See
-- docs/decisions/0070-event-feed-order-and-cursor.md.
--
-- Events written before this migration keep xid 0 and their seq order: all
-- of them were committed, and they come before every later event.

-- +goose Up
ALTER TABLE events ADD COLUMN xid xid8 NOT NULL DEFAULT '0';
ALTER TABLE events ALTER COLUMN xid SET DEFAULT pg_current_xact_id();

DROP INDEX events_feed;
CREATE INDEX events_feed ON events (workspace_id, xid, seq) WHERE in_feed;

-- +goose Down
DROP INDEX events_feed;
CREATE INDEX events_feed ON events (workspace_id, seq) WHERE in_feed;
ALTER TABLE events DROP COLUMN xid;
