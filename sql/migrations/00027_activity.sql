-- The Activity page's own record (issue 27): every action that is not a
-- gift's preparation or approval (those are the trail of 00026), written
-- in the action's transaction by core's Kernel.RecordActivity, naming who
-- acted as they were named then. It never holds a secret: a key's or an
-- app's name, never the key or a token
-- (docs/decisions/0117-activity.md).

-- +goose Up
CREATE TABLE activity (
    id           text PRIMARY KEY CHECK (id LIKE 'act\_%'),
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    kind         text NOT NULL CHECK (kind IN (
        'skipped', 'unskipped', 'checkout_paid', 'topup_paid', 'refunded',
        'limits_changed', 'auto_approve_changed', 'key_created', 'key_revoked',
        'app_connected', 'app_disconnected')),
    -- The workspace mode the action happened in.
    mode         text NOT NULL CHECK (mode IN ('test', 'live')),
    -- Who acted: a person, a workspace key, a connected app (with the
    -- person who connected it), or Giftwell itself (staff, the processor).
    actor_kind   text NOT NULL CHECK (actor_kind IN ('person', 'key', 'connection', 'giftwell')),
    -- The user, key or grant ID the activity filter matches; '' for Giftwell.
    actor_ref    text NOT NULL,
    actor_name   text NOT NULL,
    -- The person behind the actor (the key's owner, who connected the app).
    actor_email  text NOT NULL DEFAULT '',
    campaign_id  text NOT NULL DEFAULT '',
    recipient_id text NOT NULL DEFAULT '',
    send_id      text NOT NULL DEFAULT '',
    amount_cents bigint NOT NULL DEFAULT 0 CHECK (amount_cents >= 0),
    -- What the action was about in words: a key's or an app's name, the
    -- limits a change set, where a refund went, a skip's reason.
    subject      text NOT NULL DEFAULT '' CHECK (char_length(subject) <= 500),
    created_at   timestamptz NOT NULL
);

CREATE INDEX activity_workspace_at ON activity (workspace_id, created_at DESC, id DESC);

-- The page's other two sources, newest first: the people agents prepared
-- and the gifts people and the rule approved.
CREATE INDEX recipients_prepared_at ON recipients (workspace_id, created_at DESC, id DESC) WHERE prepared_via <> '';
CREATE INDEX sends_decided_at ON sends (workspace_id, decided_at DESC, id DESC) WHERE decided_at IS NOT NULL;

-- The page reads one stream: the people agents and people prepared
-- (recipients' prepared_*, named as they are now), the gifts people and
-- the auto-approve rule decided (sends' decided_*, named as they were
-- then; their subject is how the gift was paid for), and this record. Each row's ID is unique across the three (their
-- prefixes differ), so (at, id) pages it.
CREATE VIEW activity_feed AS
SELECT r.workspace_id,
       r.created_at AS at,
       r.id,
       'prepared'::text AS kind,
       ''::text AS mode,
       (CASE r.prepared_via WHEN 'session' THEN 'person' ELSE r.prepared_via END)::text AS actor_kind,
       (CASE r.prepared_via WHEN 'session' THEN r.prepared_user ELSE r.prepared_credential END)::text AS actor_ref,
       coalesce(CASE r.prepared_via WHEN 'key' THEN k.name WHEN 'connection' THEN oc.client_name ELSE u.name END, '')::text AS actor_name,
       coalesce(u.email, '')::text AS actor_email,
       0::bigint AS rule_version,
       r.campaign_id,
       r.id AS recipient_id,
       ''::text AS send_id,
       0::bigint AS amount_cents,
       ''::text AS subject
FROM recipients r
LEFT JOIN api_keys k ON r.prepared_via = 'key' AND k.id = r.prepared_credential
LEFT JOIN oauth_grants g ON r.prepared_via = 'connection' AND g.id = r.prepared_credential
LEFT JOIN oauth_clients oc ON oc.id = g.client_id
LEFT JOIN users u ON u.id = r.prepared_user
WHERE r.prepared_via <> ''
UNION ALL
SELECT s.workspace_id,
       s.decided_at,
       s.id,
       'approved'::text,
       s.mode,
       coalesce(s.decided_by ->> 'kind', '')::text,
       (CASE WHEN s.decided_by ->> 'kind' = 'rule' THEN '' ELSE s.approved_by END)::text,
       coalesce(s.decided_by ->> 'name', '')::text,
       coalesce(s.decided_by ->> 'email', '')::text,
       coalesce((s.decided_by ->> 'ruleVersion')::bigint, 0)::bigint,
       s.campaign_id,
       s.recipient_id,
       s.id,
       s.total_cents,
       s.funded_by
FROM sends s
WHERE s.decided_at IS NOT NULL
UNION ALL
SELECT a.workspace_id, a.created_at, a.id, a.kind, a.mode, a.actor_kind, a.actor_ref, a.actor_name, a.actor_email,
       0::bigint, a.campaign_id, a.recipient_id, a.send_id, a.amount_cents, a.subject
FROM activity a;

-- The record is append-only (a workspace's removal still takes it along).
-- +goose StatementBegin
CREATE FUNCTION activity_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'activity is append-only';
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER activity_append_only BEFORE UPDATE ON activity
    FOR EACH ROW EXECUTE FUNCTION activity_append_only();

-- +goose Down
DROP VIEW activity_feed;
DROP INDEX sends_decided_at;
DROP INDEX recipients_prepared_at;
DROP TABLE activity;
DROP FUNCTION activity_append_only();
