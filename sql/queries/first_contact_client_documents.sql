-- name: OAuthClientDocumentUpsert :exec
-- Stores a client identified by its metadata document URL, as last fetched:
-- a new row, or the fresh copy of an expired one. A registered client (oac_)
-- is never touched.
INSERT INTO oauth_clients (id, client_name, client_uri, redirect_uris, token_endpoint_auth_method,
                           grant_types, response_types, scope, created_at,
                           document_fetched_at, document_expires_at)
VALUES (@id, @client_name, @client_uri, @redirect_uris, 'none',
        @grant_types, @response_types, @scope, @fetched_at,
        @fetched_at, sqlc.arg(expires_at)::timestamptz)
ON CONFLICT (id) DO UPDATE
SET client_name = excluded.client_name, client_uri = excluded.client_uri,
    redirect_uris = excluded.redirect_uris, grant_types = excluded.grant_types,
    response_types = excluded.response_types, scope = excluded.scope,
    document_fetched_at = excluded.document_fetched_at, document_expires_at = excluded.document_expires_at
WHERE oauth_clients.document_expires_at IS NOT NULL;
