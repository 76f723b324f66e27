-- The gift catalog: one row per product (the product's JSON as imported) and
-- a single state row whose version changes with every replacement, so that
-- every process's in-memory copy knows when to reload.

-- +goose Up
CREATE TABLE catalog_products (
    id         text PRIMARY KEY CHECK (char_length(id) BETWEEN 1 AND 200),
    -- Catalog order: browse and ties in search follow it.
    position   integer NOT NULL UNIQUE CHECK (position >= 0),
    -- The core.Product, validated and normalized by core before it is stored.
    data       jsonb NOT NULL CHECK (jsonb_typeof(data) = 'object' AND data ->> 'id' = id),
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE catalog_state (
    -- Exactly one row.
    singleton     boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    -- Increases with every replacement of the products; 0 only inside the
    -- transaction that creates the row.
    version       bigint NOT NULL CHECK (version >= 0),
    -- embedded: the catalog built into the binary; import: giftwell catalog import.
    source        text NOT NULL CHECK (source IN ('embedded', 'import')),
    -- SHA-256 (hex) of the catalog as read, to tell whether the embedded one changed.
    digest        text NOT NULL,
    product_count integer NOT NULL CHECK (product_count >= 0),
    imported_at   timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE catalog_state;
DROP TABLE catalog_products;
