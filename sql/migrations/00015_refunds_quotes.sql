-- +goose Up
-- Refunds, price changes, legacy quotes and prepaid shipping states
-- (docs/decisions/0056-gift-refund-requests.md,
-- 0057-final-prices-and-balance-mismatch.md, 0058-legacy-quote-and-commit.md,
-- 0059-prepaid-offers-and-shipping-states.md).

-- A refund request of one paid, unused gift, reviewed by the service's
-- staff: requested, then processing (a card refund under way), then refunded
-- or rejected. A gift has at most one request that is not rejected.
CREATE TABLE gift_refunds (
    id                  text PRIMARY KEY CHECK (id LIKE 'rfd\_%'),
    workspace_id        text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    campaign_id         text NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    send_id             text NOT NULL REFERENCES sends (id) ON DELETE CASCADE,
    mode                text NOT NULL CHECK (mode IN ('test', 'live')),
    state               text NOT NULL CHECK (state IN ('requested', 'processing', 'refunded', 'rejected')),
    reason              text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 500),
    -- What the gift cost and how it was paid, as requested.
    amount_cents        bigint NOT NULL CHECK (amount_cents > 0),
    funded_by           text NOT NULL CHECK (funded_by IN ('balance', 'checkout')),
    requested_by        text NOT NULL,
    -- The processor's refund of a card-paid gift; empty otherwise.
    processor_refund_id text NOT NULL DEFAULT '',
    created_at          timestamptz NOT NULL,
    decided_at          timestamptz,
    updated_at          timestamptz NOT NULL,
    CHECK ((state IN ('refunded', 'rejected')) = (decided_at IS NOT NULL))
);

CREATE UNIQUE INDEX gift_refunds_open_once ON gift_refunds (send_id) WHERE state <> 'rejected';
CREATE INDEX gift_refunds_campaign ON gift_refunds (campaign_id, created_at DESC);

-- A shipping-quote gift's final price, confirmed by staff: NULL until then.
-- price_review is 'confirmed' when the price stands, or 'balance_mismatch'
-- when a balance-paid gift's amount changed and it waits for staff.
-- shipping_states are the US states a recipient may confirm an address in
-- (a prepaid offer's); NULL allows every state.
ALTER TABLE sends
    ADD COLUMN final_price_cents bigint CHECK (final_price_cents IS NULL OR final_price_cents >= 0),
    ADD COLUMN price_review text CHECK (price_review IS NULL OR price_review IN ('confirmed', 'balance_mismatch')),
    ADD COLUMN shipping_states text[];

-- A legacy quote (quote_send): the per-gift prices of a roster, kept 15
-- minutes; commit_send turns it into gifts once (send_ids).
CREATE TABLE send_quotes (
    id             text PRIMARY KEY CHECK (id LIKE 'quo\_%'),
    workspace_id   text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    campaign_id    text NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    mode           text NOT NULL CHECK (mode IN ('test', 'live')),
    policy_version bigint NOT NULL,
    -- campaign.QuoteItem list.
    items          jsonb NOT NULL CHECK (jsonb_typeof(items) = 'array'),
    total_cents    bigint NOT NULL CHECK (total_cents >= 0),
    send_ids       text[],
    created_at     timestamptz NOT NULL,
    expires_at     timestamptz NOT NULL,
    committed_at   timestamptz,
    committed_by   text NOT NULL DEFAULT ''
);

CREATE INDEX send_quotes_campaign ON send_quotes (campaign_id, created_at DESC);

-- +goose Down
DROP TABLE send_quotes;
ALTER TABLE sends DROP COLUMN shipping_states, DROP COLUMN price_review, DROP COLUMN final_price_cents;
DROP TABLE gift_refunds;
