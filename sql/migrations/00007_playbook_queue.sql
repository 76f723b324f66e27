-- Playbooks at work: each roster person's approval state (the queue), the
-- gift an approval creates, and the events those writes record.

-- +goose Up

-- A playbook person's approval state. waiting and scheduled people are the
-- queue; approved and auto_approved people have a gift; skipped people were
-- set aside by an owner or admin. Batch and single rosters keep the default
-- and never read it. queue_seq is the queue's order across the workspace:
-- the balance, the monthly budget and the playbook limits are shared by
-- waiting people in this order.
ALTER TABLE recipients
    ADD COLUMN queue_seq       bigint GENERATED ALWAYS AS IDENTITY,
    ADD COLUMN approval_state  text NOT NULL DEFAULT 'waiting'
        CHECK (approval_state IN ('waiting', 'scheduled', 'approved', 'auto_approved', 'skipped')),
    -- Why a waiting person waits (core.ApprovalReason); empty otherwise.
    ADD COLUMN approval_reason text NOT NULL DEFAULT '',
    ADD COLUMN skip_reason     text NOT NULL DEFAULT '' CHECK (char_length(skip_reason) <= 200),
    ADD COLUMN skipped_by      text NOT NULL DEFAULT '',
    ADD COLUMN skipped_at      timestamptz,
    ADD CONSTRAINT recipients_skipped CHECK ((approval_state = 'skipped') = (skipped_at IS NOT NULL)),
    ADD CONSTRAINT recipients_reason CHECK (approval_state = 'waiting' OR approval_reason = '');

-- People who already have a gift were approved.
UPDATE recipients SET approval_state = 'approved'
WHERE id IN (SELECT recipient_id FROM sends WHERE status <> 'cancelled');

CREATE UNIQUE INDEX recipients_queue_seq ON recipients (queue_seq);
CREATE INDEX recipients_queue ON recipients (workspace_id, queue_seq)
    WHERE approval_state IN ('waiting', 'scheduled');
CREATE INDEX recipients_skipped ON recipients (workspace_id, skipped_at DESC)
    WHERE approval_state = 'skipped';

-- The gift record, as approval creates it: who approved it (a user ID, or
-- empty for auto-approve), a snapshot of the person and of what is printed.
ALTER TABLE sends
    ADD COLUMN auto_approved  boolean NOT NULL DEFAULT false,
    ADD COLUMN approved_by    text NOT NULL DEFAULT '',
    -- core.GiftRecipient: the person as they were when the gift was created.
    ADD COLUMN recipient      jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(recipient) = 'object'),
    -- The resolved note and the campaign's customization at creation.
    ADD COLUMN message        text NOT NULL DEFAULT '',
    ADD COLUMN customization  jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(customization) = 'object'),
    ADD COLUMN updated_at     timestamptz;

UPDATE sends SET updated_at = created_at;
ALTER TABLE sends ALTER COLUMN updated_at SET NOT NULL;

-- A roster person has at most one gift that is not cancelled.
CREATE UNIQUE INDEX sends_recipient_once ON sends (recipient_id) WHERE status <> 'cancelled';

-- The event feed (and what webhooks deliver). in_feed is false for
-- webhook-only types (playbook.person_waiting), which have no cursor.
-- Events never hold addresses, emails, notes or gift links.
CREATE TABLE events (
    id           text PRIMARY KEY CHECK (id LIKE 'evt\_%'),
    seq          bigint NOT NULL GENERATED ALWAYS AS IDENTITY UNIQUE,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    type         text NOT NULL CHECK (type IN (
        'send.created', 'send.gift_link_changed', 'send.address_confirmed', 'send.link_opened',
        'send.status_changed', 'send.order_changed', 'send.outcome_reported', 'send.tracking_changed',
        'send.auto_approved', 'playbook.person_waiting')),
    mode         text NOT NULL CHECK (mode IN ('test', 'live')),
    campaign_id  text NOT NULL DEFAULT '',
    send_id      text NOT NULL DEFAULT '',
    recipient_id text NOT NULL DEFAULT '',
    -- The type's own fields (core.Event.Data).
    data         jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(data) = 'object'),
    in_feed      boolean NOT NULL,
    created_at   timestamptz NOT NULL,
    CHECK (in_feed = (type <> 'playbook.person_waiting'))
);

CREATE INDEX events_feed ON events (workspace_id, seq) WHERE in_feed;
CREATE INDEX events_send ON events (send_id) WHERE send_id <> '';

-- +goose Down
DROP TABLE events;
DROP INDEX sends_recipient_once;
ALTER TABLE sends
    DROP COLUMN auto_approved, DROP COLUMN approved_by, DROP COLUMN recipient,
    DROP COLUMN message, DROP COLUMN customization, DROP COLUMN updated_at;
ALTER TABLE recipients
    DROP CONSTRAINT recipients_skipped, DROP CONSTRAINT recipients_reason,
    DROP COLUMN queue_seq, DROP COLUMN approval_state, DROP COLUMN approval_reason,
    DROP COLUMN skip_reason, DROP COLUMN skipped_by, DROP COLUMN skipped_at;
