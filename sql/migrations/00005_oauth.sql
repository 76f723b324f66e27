-- OAuth 2.1 sign-in connections (issue 6): dynamically registered clients,
-- grants (one per consent: a person, a workspace, a client, a resource and
-- the scopes they ticked) and every token kind fosite stores, looked up by
-- signature in one row shape as hydra's persister does. Secrets at rest are
-- hashes: token signatures are SHA-256 (hex) of the token.

-- +goose Up
CREATE TABLE oauth_clients (
    id                         text PRIMARY KEY CHECK (id LIKE 'oac\_%'),
    client_name                text NOT NULL DEFAULT '' CHECK (char_length(client_name) <= 200),
    client_uri                 text NOT NULL DEFAULT '' CHECK (char_length(client_uri) <= 2000),
    redirect_uris              text[] NOT NULL CHECK (cardinality(redirect_uris) BETWEEN 1 AND 10),
    token_endpoint_auth_method text NOT NULL CHECK (token_endpoint_auth_method IN ('none', 'client_secret_basic', 'client_secret_post')),
    -- SHA-256 (hex) of the client secret of a confidential client; null for public clients.
    secret_hash                text,
    grant_types                text[] NOT NULL,
    response_types             text[] NOT NULL,
    scope                      text NOT NULL,
    -- The address that registered the client, for the registration rate limit.
    registered_from            text NOT NULL DEFAULT '',
    created_at                 timestamptz NOT NULL,
    CHECK ((token_endpoint_auth_method = 'none') = (secret_hash IS NULL))
);

CREATE INDEX oauth_clients_registered_from ON oauth_clients (registered_from, created_at);

CREATE TABLE oauth_grants (
    id            text PRIMARY KEY CHECK (id LIKE 'ogr\_%'),
    client_id     text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
    workspace_id  text NOT NULL,
    user_id       text NOT NULL,
    -- The resource indicator (RFC 8707) the grant is bound to: {mcp_url} or {chatgpt_mcp_url}.
    resource      text NOT NULL,
    scopes        text[] NOT NULL,
    consented_at  timestamptz NOT NULL,
    -- 30 days after consent or the latest refresh, capped at hard_expires_at.
    expires_at    timestamptz NOT NULL,
    -- 365 days after consent.
    hard_expires_at timestamptz NOT NULL,
    revoked_at    timestamptz,
    -- Leaving the workspace ends the person's grants (and, by cascade, their tokens).
    FOREIGN KEY (workspace_id, user_id) REFERENCES memberships (workspace_id, user_id) ON DELETE CASCADE,
    CHECK (expires_at <= hard_expires_at)
);
CREATE INDEX oauth_grants_member ON oauth_grants (workspace_id, user_id);

-- Every token kind fosite stores (authorization codes, access and refresh
-- tokens, PKCE requests), looked up by signature.
CREATE TABLE oauth_tokens (
    signature      text NOT NULL,
    kind           text NOT NULL CHECK (kind IN ('authorize_code', 'access_token', 'refresh_token', 'pkce')),
    -- fosite's request ID: every token issued from one authorization shares it.
    request_id     text NOT NULL,
    grant_id       text NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
    client_id      text NOT NULL,
    requested_at   timestamptz NOT NULL,
    expires_at     timestamptz NOT NULL,
    scopes         text[] NOT NULL,
    granted_scopes text[] NOT NULL,
    -- The request's form (without secrets) and session, as fosite serialises them.
    form_data      jsonb NOT NULL DEFAULT '{}',
    session_data   jsonb NOT NULL DEFAULT '{}',
    -- False once used (codes, refresh tokens) or revoked.
    active         boolean NOT NULL DEFAULT true,
    PRIMARY KEY (kind, signature)
);
CREATE INDEX oauth_tokens_request ON oauth_tokens (request_id);
CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id);

-- +goose Down
DROP TABLE oauth_tokens;
DROP TABLE oauth_grants;
DROP TABLE oauth_clients;
