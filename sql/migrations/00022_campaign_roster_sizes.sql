-- +goose Up
-- Limits and scale: the roster bound kept by the database.
--
-- How many people each campaign's roster holds, kept by a constraint
-- trigger deferred to the commit of every transaction that adds or removes
-- people (docs/decisions/0048-roster-bound-checked-at-commit.md): an add
-- reads it instead of counting the roster, and the commit that would take a
-- roster past 2,000 people (core.RecipientsPerPlaybook; a batch's bound of
-- 500 is checked before any write) fails with a check_violation of
-- campaign_roster_bound. The counter row is locked only from that update to
-- the commit, so adds side by side wait for each other only while they
-- commit.
CREATE TABLE campaign_roster_sizes (
    campaign_id text PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE,
    people      integer NOT NULL CHECK (people >= 0)
);

INSERT INTO campaign_roster_sizes (campaign_id, people)
SELECT campaign_id, count(*) FROM recipients GROUP BY campaign_id;

-- +goose StatementBegin
CREATE FUNCTION campaign_roster_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    n integer;
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO campaign_roster_sizes AS s (campaign_id, people) VALUES (NEW.campaign_id, 1)
        ON CONFLICT (campaign_id) DO UPDATE SET people = s.people + 1
        RETURNING s.people INTO n;
        IF n > 2000 THEN
            RAISE EXCEPTION 'campaign % would hold % people; a roster holds at most 2000', NEW.campaign_id, n
                USING ERRCODE = 'check_violation', CONSTRAINT = 'campaign_roster_bound';
        END IF;
    ELSE
        UPDATE campaign_roster_sizes SET people = people - 1 WHERE campaign_id = OLD.campaign_id;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE CONSTRAINT TRIGGER recipients_roster_size
    AFTER INSERT OR DELETE ON recipients
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION campaign_roster_count();

-- +goose Down
DROP TRIGGER recipients_roster_size ON recipients;
DROP FUNCTION campaign_roster_count();
DROP TABLE campaign_roster_sizes;
