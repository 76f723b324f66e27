-- +goose Up
-- Customer-reported outcomes (record_outcome;
-- docs/decisions/0071-outcomes.md). Every report is kept; the gift's
-- current outcome (sends.outcome) is the one that occurred last, so
-- sends.outcome_occurred_at remembers when it occurred.
ALTER TABLE sends ADD COLUMN outcome_occurred_at timestamptz;

CREATE TABLE send_outcomes (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace_id      text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    send_id           text NOT NULL REFERENCES sends (id) ON DELETE CASCADE,
    outcome           text NOT NULL CHECK (outcome IN ('none', 'replied', 'meeting_booked', 'meeting_held')),
    -- Who reported it (a CRM, a calendar, ...); '' when not said.
    source            text NOT NULL DEFAULT '' CHECK (char_length(source) <= 100),
    -- The reporter's own ID of the report; '' when not given (then it is
    -- never deduplicated).
    external_event_id text NOT NULL DEFAULT '' CHECK (char_length(external_event_id) <= 200),
    occurred_at       timestamptz NOT NULL,
    created_at        timestamptz NOT NULL
);

-- externalEventId deduplicates per workspace and source.
CREATE UNIQUE INDEX send_outcomes_external ON send_outcomes (workspace_id, source, external_event_id)
    WHERE external_event_id <> '';
CREATE INDEX send_outcomes_send ON send_outcomes (send_id);

-- +goose Down
DROP TABLE send_outcomes;
ALTER TABLE sends DROP COLUMN outcome_occurred_at;
