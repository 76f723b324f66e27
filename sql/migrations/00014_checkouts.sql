-- Card checkouts for batch and single campaigns, the paid roster positions
-- that launch turns into gifts, and the payment processor's events applied
-- exactly once (Stripe's webhook).
--
-- A checkout is committed first as an intent (state creating) and only then
-- sent to the processor, whose session is recorded afterwards: no call to
-- the processor runs inside a transaction.
--
--   creating -> open -> paid -> consumed
--   creating | open  -> expired | cancelled

-- +goose Up
CREATE TABLE checkouts (
    id                   text PRIMARY KEY CHECK (id LIKE 'chk\_%'),
    workspace_id         text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    campaign_id          text NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    mode                 text NOT NULL CHECK (mode IN ('test', 'live')),
    state                text NOT NULL CHECK (state IN ('creating', 'open', 'paid', 'consumed', 'expired', 'cancelled')),
    idempotency_key      text NOT NULL CHECK (char_length(idempotency_key) BETWEEN 8 AND 150),
    policy_version       bigint NOT NULL,
    unit_cents           bigint NOT NULL CHECK (unit_cents >= 0),
    amount_cents         bigint NOT NULL CHECK (amount_cents > 0),
    recipient_count      integer NOT NULL CHECK (recipient_count > 0),
    remaining_count      integer NOT NULL CHECK (remaining_count >= 0),
    launch_cursor        integer NOT NULL DEFAULT 0 CHECK (launch_cursor >= 0),
    -- Bought at the gift's prepaid offer (unit_cents is the offer's price).
    prepaid              boolean NOT NULL DEFAULT false,
    -- The processor ("sandbox" or "stripe") and its session, once opened.
    processor            text NOT NULL,
    processor_session_id text UNIQUE,
    url                  text NOT NULL DEFAULT '',
    -- The processor's payment (Stripe's PaymentIntent), once paid.
    payment_ref          text NOT NULL DEFAULT '',
    -- A payment the processor reported after the checkout had expired or
    -- was cancelled: recorded for staff, never applied.
    late_payment_ref     text NOT NULL DEFAULT '',
    refunded_cents       bigint NOT NULL DEFAULT 0 CHECK (refunded_cents >= 0),
    invoice_url          text NOT NULL DEFAULT '',
    invoice_pdf          text NOT NULL DEFAULT '',
    created_by           text NOT NULL,
    created_at           timestamptz NOT NULL,
    expires_at           timestamptz NOT NULL,
    paid_at              timestamptz,
    closed_at            timestamptz,
    UNIQUE (campaign_id, idempotency_key, policy_version),
    CHECK ((state IN ('paid', 'consumed')) = (paid_at IS NOT NULL))
);

-- At most one checkout of a campaign is in progress (creating, open or paid).
CREATE UNIQUE INDEX checkouts_one_in_progress ON checkouts (campaign_id)
    WHERE state IN ('creating', 'open', 'paid');
CREATE INDEX checkouts_workspace_created ON checkouts (workspace_id, mode, created_at DESC, id DESC);

-- The roster positions a checkout paid for, in roster order; launch turns
-- each into one gift (send_id) or records why it could not (error_code).
CREATE TABLE checkout_items (
    checkout_id   text NOT NULL REFERENCES checkouts (id) ON DELETE CASCADE,
    position      integer NOT NULL CHECK (position >= 0),
    recipient_id  text NOT NULL REFERENCES recipients (id),
    unit_cents    bigint NOT NULL CHECK (unit_cents >= 0),
    send_id       text REFERENCES sends (id),
    error_code    text NOT NULL DEFAULT '',
    error_message text NOT NULL DEFAULT '',
    prepared_at   timestamptz,
    PRIMARY KEY (checkout_id, position),
    UNIQUE (checkout_id, recipient_id)
);

CREATE UNIQUE INDEX checkout_items_send ON checkout_items (send_id) WHERE send_id IS NOT NULL;

-- Events from the payment processor, applied exactly once: the event's ID
-- is inserted in the transaction that applies it.
CREATE TABLE processor_events (
    id          text PRIMARY KEY,
    processor   text NOT NULL,
    type        text NOT NULL,
    object_id   text NOT NULL DEFAULT '',
    outcome     text NOT NULL DEFAULT '',
    received_at timestamptz NOT NULL
);

-- +goose Down
DROP TABLE processor_events;
DROP TABLE checkout_items;
DROP TABLE checkouts;
