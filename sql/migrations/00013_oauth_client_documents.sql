-- +goose Up
-- Client ID metadata documents
-- (docs/decisions/0090-client-id-metadata-documents.md). A client may
-- identify itself by an https URL whose JSON document describes it; the
-- document, once fetched and checked, is kept as that client's row here,
-- keyed by its URL, until document_expires_at (its HTTP caching lifetime,
-- between 5 minutes and 24 hours). Grants name such a client by its URL as
-- they name a registered one by its oac_ ID. Such clients are always public
-- (no secret).
ALTER TABLE oauth_clients
    ADD COLUMN document_fetched_at timestamptz,
    ADD COLUMN document_expires_at timestamptz;

ALTER TABLE oauth_clients DROP CONSTRAINT oauth_clients_id_check;
ALTER TABLE oauth_clients ADD CONSTRAINT oauth_clients_id_check CHECK (
    (id LIKE 'oac\_%' AND document_fetched_at IS NULL AND document_expires_at IS NULL)
    OR (id LIKE 'https://%' AND char_length(id) <= 2000
        AND document_fetched_at IS NOT NULL AND document_expires_at IS NOT NULL
        AND token_endpoint_auth_method = 'none')
);

-- +goose Down
DELETE FROM oauth_clients WHERE id NOT LIKE 'oac\_%';
ALTER TABLE oauth_clients DROP CONSTRAINT oauth_clients_id_check;
ALTER TABLE oauth_clients ADD CONSTRAINT oauth_clients_id_check CHECK (id LIKE 'oac\_%');
ALTER TABLE oauth_clients DROP COLUMN document_expires_at, DROP COLUMN document_fetched_at;
