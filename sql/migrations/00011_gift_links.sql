-- +goose Up
-- Gift links (docs/decisions/0066-gift-link-tokens-and-states.md). A gift
-- whose recipient confirms their own address has one link. Its token is never
-- stored: it is derived from the service's link key (kept outside the
-- database), the gift, the generation and token_salt, so it can be shown
-- again; the database keeps only its SHA-256 (gift_link_tokens), which finds
-- the gift when the recipient opens it.
CREATE TABLE gift_links (
    send_id           text PRIMARY KEY REFERENCES sends (id) ON DELETE CASCADE,
    workspace_id      text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    campaign_id       text NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    -- Advances on regift; every generation has its own token.
    generation        integer NOT NULL DEFAULT 1 CHECK (generation >= 1),
    -- Advances on every change of the message or branding.
    message_version   integer NOT NULL DEFAULT 1 CHECK (message_version >= 1),
    token_salt        bytea NOT NULL CHECK (length(token_salt) = 16),
    -- active: waits for the recipient; used: the recipient confirmed an
    -- address or declined; revoked: stopped by the sender before use.
    state             text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'used', 'revoked')),
    -- The landing message; '' shows the default (the campaign's welcome).
    message           text NOT NULL DEFAULT '' CHECK (char_length(message) <= 2000),
    -- giftlink.Branding {senderName, senderCompany, contactEmail,
    -- logoAssetId}; NULL shows the workspace's and the campaign's.
    branding          jsonb CHECK (branding IS NULL OR jsonb_typeof(branding) = 'object'),
    -- The last generation whose opening was recorded (send.link_opened once
    -- per generation).
    opened_generation integer NOT NULL DEFAULT 0,
    -- When this generation was created, and when it stops working.
    created_at        timestamptz NOT NULL,
    expires_at        timestamptz NOT NULL,
    used_at           timestamptz,
    revoked_at        timestamptz,
    updated_at        timestamptz NOT NULL,
    CHECK ((state = 'used') = (used_at IS NOT NULL)),
    CHECK ((state = 'revoked') = (revoked_at IS NOT NULL))
);

CREATE INDEX gift_links_campaign ON gift_links (campaign_id);
-- The expiry sweep: active links past their end.
CREATE INDEX gift_links_expiring ON gift_links (expires_at) WHERE state = 'active';

-- Every token a link ever had, by SHA-256: an older generation's token
-- finds its gift to say the link was replaced.
CREATE TABLE gift_link_tokens (
    token_hash bytea PRIMARY KEY CHECK (length(token_hash) = 32),
    send_id    text NOT NULL REFERENCES gift_links (send_id) ON DELETE CASCADE,
    generation integer NOT NULL,
    UNIQUE (send_id, generation)
);

-- What happened to links: creation, message and branding changes, regifts
-- and revocations (get_campaign_invitations). Never a token or an address.
CREATE TABLE gift_link_changes (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace_id    text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    campaign_id     text NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    send_id         text NOT NULL REFERENCES sends (id) ON DELETE CASCADE,
    kind            text NOT NULL CHECK (kind IN ('message', 'regift', 'revoke')),
    generation      integer NOT NULL,
    message_version integer NOT NULL,
    message         text NOT NULL DEFAULT '',
    branding        jsonb,
    -- The user whose key or session made the change.
    changed_by      text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL
);

CREATE INDEX gift_link_changes_campaign ON gift_link_changes (campaign_id, id);

-- The address a recipient typed into their gift link. Keys and connections
-- never read it (only that it exists); the service's staff ship to it.
CREATE TABLE gift_addresses (
    send_id      text PRIMARY KEY REFERENCES sends (id) ON DELETE CASCADE,
    name         text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
    street       text NOT NULL CHECK (char_length(street) BETWEEN 1 AND 200),
    street2      text NOT NULL DEFAULT '' CHECK (char_length(street2) <= 200),
    city         text NOT NULL CHECK (char_length(city) BETWEEN 1 AND 100),
    state        text NOT NULL CHECK (state ~ '^[A-Z]{2}$'),
    zip          text NOT NULL CHECK (zip ~ '^[0-9]{5}(-[0-9]{4})?$'),
    country      text NOT NULL DEFAULT 'US' CHECK (country = 'US'),
    confirmed_at timestamptz NOT NULL
);

-- What a gift record shows of its link: the generation (0 without a link)
-- and when its recipient confirmed an address (never the address).
ALTER TABLE sends
    ADD COLUMN gift_link_generation integer NOT NULL DEFAULT 0 CHECK (gift_link_generation >= 0),
    ADD COLUMN address_confirmed_at timestamptz;

-- Guesses at /g/ per client address (a fixed window; pruned with sign-in
-- records).
CREATE TABLE gift_link_guesses (
    client_ip  text NOT NULL,
    window_at  timestamptz NOT NULL,
    misses     integer NOT NULL DEFAULT 0,
    PRIMARY KEY (client_ip, window_at)
);

-- +goose Down
DROP TABLE gift_link_guesses;
ALTER TABLE sends DROP COLUMN gift_link_generation, DROP COLUMN address_confirmed_at;
DROP TABLE gift_addresses;
DROP TABLE gift_link_changes;
DROP TABLE gift_link_tokens;
DROP TABLE gift_links;
