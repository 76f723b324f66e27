-- +goose Up
-- The handover's trail: who added each person (the credential that
-- prepared their gift) and, on each gift, who prepared it and who decided
-- it, as they were named then, recorded once with the approval
-- (docs/decisions/0115-prepared-by-and-decided-by.md).
ALTER TABLE recipients
    ADD COLUMN prepared_via        text NOT NULL DEFAULT '' CHECK (prepared_via IN ('', 'key', 'connection', 'session')),
    ADD COLUMN prepared_credential text NOT NULL DEFAULT '',
    ADD COLUMN prepared_user       text NOT NULL DEFAULT '';

ALTER TABLE sends
    ADD COLUMN prepared_by jsonb,
    ADD COLUMN decided_by  jsonb,
    ADD COLUMN decided_at  timestamptz;

-- +goose Down
ALTER TABLE sends DROP COLUMN decided_at, DROP COLUMN decided_by, DROP COLUMN prepared_by;
ALTER TABLE recipients DROP COLUMN prepared_user, DROP COLUMN prepared_credential, DROP COLUMN prepared_via;
