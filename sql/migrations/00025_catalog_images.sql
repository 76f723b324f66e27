-- The pictures an operator supplies with an imported catalog, one per
-- product at most, replaced with the products in the same transaction
-- (docs/decisions/0109-product-pictures.md). The built-in catalog's
-- illustrations are in the binary and have no rows.

-- +goose Up
CREATE TABLE catalog_images (
    product_id   text PRIMARY KEY CHECK (char_length(product_id) BETWEEN 1 AND 200),
    content_type text NOT NULL CHECK (content_type IN ('image/svg+xml', 'image/png', 'image/jpeg', 'image/webp')),
    -- At most 2 MiB, checked by core before it is stored.
    data         bytea NOT NULL CHECK (octet_length(data) BETWEEN 1 AND 2097152)
);

-- +goose Down
DROP TABLE catalog_images;
