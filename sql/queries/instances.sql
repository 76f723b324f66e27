-- name: CatalogListen :exec
-- Subscribes the connection to catalog_changed, which a change of the
-- catalog's version notifies (the catalog_state trigger of migration 00018).
LISTEN catalog_changed;
