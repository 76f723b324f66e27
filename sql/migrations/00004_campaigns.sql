-- Campaigns (playbooks, batches and single gifts), their rosters, and the
-- sends (gifts) that later issues create. The sends table is minimal here:
-- enough to find people already gifted (repeats), to count what a campaign
-- has committed, and to export; the playbook and billing issues extend it.

-- +goose Up
CREATE TABLE campaigns (
    id                   text PRIMARY KEY CHECK (id LIKE 'cmp\_%'),
    -- Creation order: lists are newest first by seq, which never ties.
    seq                  bigint NOT NULL GENERATED ALWAYS AS IDENTITY UNIQUE,
    workspace_id         text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    -- The campaign kind (the spec's `mode`), not the workspace's test/live mode.
    mode                 text NOT NULL CHECK (mode IN ('always_on', 'batch', 'single')),
    status               text NOT NULL CHECK (status IN ('draft', 'active', 'paused', 'completed')),
    name                 text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
    description          text NOT NULL DEFAULT '' CHECK (char_length(description) <= 2000),
    product_id           text NOT NULL CHECK (char_length(product_id) BETWEEN 1 AND 200),
    budget_cents         bigint NOT NULL CHECK (budget_cents BETWEEN 1 AND 100000000),
    per_person_cents     bigint NOT NULL CHECK (per_person_cents BETWEEN 1 AND 10000000),
    max_sends            integer NOT NULL CHECK (max_sends BETWEEN 1 AND 2000),
    monthly_budget_cents bigint CHECK (monthly_budget_cents BETWEEN 100 AND 100000000),
    sender_name          text NOT NULL CHECK (char_length(sender_name) BETWEEN 1 AND 200),
    sender_company       text NOT NULL CHECK (char_length(sender_company) BETWEEN 1 AND 200),
    -- The shared note template, placeholders unresolved.
    message              text NOT NULL DEFAULT '',
    meeting_url          text NOT NULL DEFAULT '',
    recipient_source     text NOT NULL CHECK (recipient_source IN ('manual', 'workflow')),
    -- Up to eight text fields (core.Customization).
    customization        jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(customization) = 'object'),
    -- core.Attribution.
    attribution          jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(attribution) = 'object'),
    -- Optimistic concurrency: every write compares and increments it.
    policy_version       bigint NOT NULL DEFAULT 1 CHECK (policy_version >= 1),
    -- core.AutoApprove once a signed-in person sets it (a later issue); null before.
    auto_approve         jsonb,
    -- create_campaign's idempotencyKey and the SHA-256 (hex) of the body it
    -- came with: the same key with another body is IDEMPOTENCY_CONFLICT.
    idempotency_key      text CHECK (char_length(idempotency_key) BETWEEN 8 AND 150),
    request_hash         text,
    created_by           text NOT NULL,
    created_at           timestamptz NOT NULL,
    updated_at           timestamptz NOT NULL,
    CHECK (per_person_cents <= budget_cents),
    CHECK ((idempotency_key IS NULL) = (request_hash IS NULL))
);

CREATE UNIQUE INDEX campaigns_idempotency_key ON campaigns (workspace_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
CREATE INDEX campaigns_workspace_seq ON campaigns (workspace_id, seq DESC);

-- A campaign's roster: one row per person, in roster order. Empty text means
-- absent. Emails are stored lowercased.
CREATE TABLE recipients (
    id                        text PRIMARY KEY CHECK (id LIKE 'recipient\_%'),
    workspace_id              text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    campaign_id               text NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    position                  integer NOT NULL CHECK (position >= 0),
    name                      text NOT NULL DEFAULT '',
    email                     text NOT NULL DEFAULT '' CHECK (email = lower(email)),
    company                   text NOT NULL DEFAULT '',
    title                     text NOT NULL DEFAULT '',
    source_system             text NOT NULL DEFAULT '',
    external_id               text NOT NULL DEFAULT '',
    -- Normalised to https://www.linkedin.com/in/<slug>.
    profile_url               text NOT NULL DEFAULT '',
    context                   text NOT NULL DEFAULT '',
    -- The person's own note template; overrides the campaign's message.
    message                   text NOT NULL DEFAULT '',
    custom_tag                text NOT NULL DEFAULT '' CHECK (char_length(custom_tag) <= 200),
    asset_ids                 text[] NOT NULL DEFAULT '{}' CHECK (cardinality(asset_ids) <= 5),
    -- core.RecipientPhoto: {source, assetId?, profileUrl?}.
    photo                     jsonb,
    adult_recipient_confirmed boolean NOT NULL DEFAULT false,
    -- Answers keyed by the gift's recipientDetails keys.
    details                   jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(details) = 'object'),
    import_id                 text NOT NULL DEFAULT '',
    import_row_id             text NOT NULL DEFAULT '',
    address_mode              text NOT NULL DEFAULT 'confirm' CHECK (address_mode IN ('confirm', 'known')),
    address                   text NOT NULL DEFAULT '',
    city                      text NOT NULL DEFAULT '',
    -- A two-letter code.
    state                     text NOT NULL DEFAULT '',
    -- 12345 or 12345-6789.
    zip                       text NOT NULL DEFAULT '',
    country                   text NOT NULL DEFAULT 'US' CHECK (country = 'US'),
    -- Set when a signed-in owner or admin approved gifting this person again.
    repeat_approved_at        timestamptz,
    repeat_approved_by        text NOT NULL DEFAULT '',
    created_at                timestamptz NOT NULL,
    updated_at                timestamptz NOT NULL,
    UNIQUE (campaign_id, position),
    CHECK ((source_system = '') = (external_id = '')),
    CHECK ((import_id = '') = (import_row_id = ''))
);

-- A person appears once per campaign: by email, and by source identity.
CREATE UNIQUE INDEX recipients_campaign_email ON recipients (campaign_id, email) WHERE email <> '';
CREATE UNIQUE INDEX recipients_campaign_source ON recipients (campaign_id, source_system, external_id)
    WHERE source_system <> '';

-- Gifts. Later issues (playbook approval, checkout launch) create them and
-- add columns; here they are what repeats, commitments and exports read. The
-- recipient's identity is copied at creation, so that a repeat is found even
-- after its roster changes.
CREATE TABLE sends (
    id                      text PRIMARY KEY CHECK (id LIKE 'send\_%'),
    workspace_id            text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    campaign_id             text NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    -- A person with a gift cannot be removed from the roster.
    recipient_id            text NOT NULL REFERENCES recipients (id),
    product_id              text NOT NULL,
    -- Gift statuses are the playbook issue's; cancelled and declined gifts
    -- commit nothing.
    status                  text NOT NULL CHECK (status <> ''),
    -- The workspace mode the gift was created in; it never changes.
    mode                    text NOT NULL CHECK (mode IN ('test', 'live')),
    total_cents             bigint NOT NULL CHECK (total_cents >= 0),
    funded_by               text NOT NULL CHECK (funded_by IN ('balance', 'checkout')),
    attribution             jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(attribution) = 'object'),
    outcome                 text NOT NULL DEFAULT 'none'
        CHECK (outcome IN ('none', 'replied', 'meeting_booked', 'meeting_held')),
    recipient_email         text NOT NULL DEFAULT '' CHECK (recipient_email = lower(recipient_email)),
    recipient_source_system text NOT NULL DEFAULT '',
    recipient_external_id   text NOT NULL DEFAULT '',
    recipient_profile_url   text NOT NULL DEFAULT '',
    recipient_name          text NOT NULL DEFAULT '',
    created_at              timestamptz NOT NULL
);

CREATE INDEX sends_campaign ON sends (campaign_id, created_at);
CREATE INDEX sends_recipient ON sends (recipient_id);
CREATE INDEX sends_workspace_email ON sends (workspace_id, recipient_email) WHERE recipient_email <> '';
CREATE INDEX sends_workspace_source ON sends (workspace_id, recipient_source_system, recipient_external_id)
    WHERE recipient_source_system <> '';
CREATE INDEX sends_workspace_profile ON sends (workspace_id, recipient_profile_url) WHERE recipient_profile_url <> '';

-- +goose Down
DROP TABLE sends;
DROP TABLE recipients;
DROP TABLE campaigns;
