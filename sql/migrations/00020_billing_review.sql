-- Billing review fixes.
--
-- A checkout bought at a gift's prepaid offer fixes the offer's shipping
-- states when it is bought (the intent transaction): launch limits its
-- gifts to them even if the catalog changes the offer or drops it later.
-- Empty for a checkout not bought at an offer (and for one bought before
-- this migration, which launch reads from the catalog as before).
--
-- checkout_items carry their checkout's workspace, so every billing query
-- names the workspace it reads.
--
-- A top-up paid through Stripe records its PaymentIntent (payment_ref), so
-- a charge.refunded event for it is recognised and reported to staff.

-- +goose Up
ALTER TABLE checkouts ADD COLUMN shipping_states text[] NOT NULL DEFAULT '{}';

ALTER TABLE checkout_items ADD COLUMN workspace_id text REFERENCES workspaces (id) ON DELETE CASCADE;
UPDATE checkout_items i SET workspace_id = c.workspace_id FROM checkouts c WHERE c.id = i.checkout_id;
ALTER TABLE checkout_items ALTER COLUMN workspace_id SET NOT NULL;

ALTER TABLE topups ADD COLUMN payment_ref text NOT NULL DEFAULT '';
CREATE INDEX topups_payment_ref ON topups (payment_ref) WHERE payment_ref <> '';

-- +goose Down
ALTER TABLE topups DROP COLUMN payment_ref;
ALTER TABLE checkout_items DROP COLUMN workspace_id;
ALTER TABLE checkouts DROP COLUMN shipping_states;
