-- name: CatalogStateGet :one
SELECT version, source, digest, product_count, imported_at
FROM catalog_state
WHERE singleton;

-- name: CatalogStateEnsure :exec
-- Creates the state row (version 0) when there is none; a concurrent
-- creator waits on the primary key and then does nothing.
INSERT INTO catalog_state (singleton, version, source, digest, product_count)
VALUES (true, 0, 'embedded', '', 0)
ON CONFLICT (singleton) DO NOTHING;

-- name: CatalogStateLock :one
-- Locks the state row for the rest of the transaction: replacements serialise on it.
SELECT version, source, digest
FROM catalog_state
WHERE singleton
FOR UPDATE;

-- name: CatalogStateBump :one
UPDATE catalog_state
SET version = version + 1,
    source = @source,
    digest = @digest,
    product_count = @product_count,
    imported_at = now()
WHERE singleton
RETURNING version;

-- name: CatalogProductDeleteAll :exec
DELETE FROM catalog_products;

-- name: CatalogProductInsertMany :execrows
-- Inserts the whole catalog in one statement from a JSON array of products;
-- positions follow the array.
INSERT INTO catalog_products (id, position, data, updated_at)
SELECT e.value ->> 'id', (e.ordinality - 1)::integer, e.value, now()
FROM jsonb_array_elements(sqlc.arg(products)::jsonb) WITH ORDINALITY AS e (value, ordinality);

-- name: CatalogProductList :many
SELECT data
FROM catalog_products
ORDER BY position;

-- name: CatalogDeleteAll :exec
-- Empties the catalog, products, pictures and state, so that the next
-- SeedCatalog loads the embedded one afresh (operators' reset; tests).
WITH products AS (DELETE FROM catalog_products),
     images AS (DELETE FROM catalog_images)
DELETE FROM catalog_state;

-- name: CatalogImageDeleteAll :exec
DELETE FROM catalog_images;

-- name: CatalogImageInsert :exec
INSERT INTO catalog_images (product_id, content_type, data)
VALUES (@product_id, @content_type, @data);

-- name: CatalogImageList :many
SELECT product_id, content_type, data
FROM catalog_images
ORDER BY product_id;
