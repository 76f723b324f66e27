-- +goose Up
-- Approvers are told by email (docs/decisions/0118-approvers-are-told.md):
-- what each person chose to get, when each kind of email last went out,
-- and the one-click unsubscribe headers an outbox email carries.

-- What a person chose to get from a workspace, per kind of email. No row
-- means the default: waiting and balance_stopped on for owners and admins,
-- declined_expired and digest off.
CREATE TABLE notification_choices (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id      text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind         text NOT NULL CHECK (kind IN ('waiting', 'balance_stopped', 'declined_expired', 'digest')),
    enabled      boolean NOT NULL,
    updated_at   timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, user_id, kind)
);

-- When an email of kind last went out about a playbook (campaign_id), or
-- about the whole workspace (campaign_id ''): at most one an hour.
CREATE TABLE notification_sends (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    campaign_id  text NOT NULL DEFAULT '',
    kind         text NOT NULL CHECK (kind IN ('waiting', 'balance_stopped', 'declined_expired', 'digest')),
    last_sent_at timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, campaign_id, kind)
);

-- RFC 2369 / RFC 8058 headers; cleared with the body once sent or given up.
ALTER TABLE email_outbox
    ADD COLUMN list_unsubscribe      text NOT NULL DEFAULT '',
    ADD COLUMN list_unsubscribe_post text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE email_outbox DROP COLUMN list_unsubscribe_post, DROP COLUMN list_unsubscribe;
DROP TABLE notification_sends;
DROP TABLE notification_choices;
