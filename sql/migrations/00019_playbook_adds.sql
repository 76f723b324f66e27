-- +goose Up
-- Limits and scale: reports and adds.
--
-- Adds that scale (docs/decisions/0044-playbook-adds.md,
-- 0048-roster-bound-checked-at-commit.md). An add to an active playbook no
-- longer holds the playbook exclusively, so concurrent adds of different
-- people cannot all compute one next roster position: position stays the
-- roster order, no longer unique, and people who share one are ordered by
-- queue_seq (the order of their adds). The index keeps the next position
-- and the roster count cheap.
ALTER TABLE recipients DROP CONSTRAINT recipients_campaign_id_position_key;
CREATE INDEX recipients_campaign_position ON recipients (campaign_id, position, queue_seq);

-- An add matches a person by profileUrl through an index, as it already
-- does by email and by sourceSystem+externalId (not unique: rosters may
-- hold people sharing one from before profileUrl was matched on).
CREATE INDEX recipients_campaign_profile ON recipients (campaign_id, profile_url) WHERE profile_url <> '';

-- Reports (get_report) read a workspace's gifts of one mode created in a
-- range of days.
CREATE INDEX sends_workspace_mode_created ON sends (workspace_id, mode, created_at);

-- +goose Down
DROP INDEX sends_workspace_mode_created;
DROP INDEX recipients_campaign_profile;
DROP INDEX recipients_campaign_position;
ALTER TABLE recipients ADD CONSTRAINT recipients_campaign_id_position_key UNIQUE (campaign_id, position);
