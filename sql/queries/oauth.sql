-- name: OAuthClientInsert :exec
INSERT INTO oauth_clients (id, client_name, client_uri, redirect_uris, token_endpoint_auth_method,
                           secret_hash, grant_types, response_types, scope, registered_from, created_at)
VALUES (@id, @client_name, @client_uri, @redirect_uris, @token_endpoint_auth_method,
        @secret_hash, @grant_types, @response_types, @scope, @registered_from, @created_at);

-- name: OAuthClientCountRecent :one
-- Registrations from one address since a time, and the oldest of them.
SELECT count(*)::bigint AS n, coalesce(min(created_at), sqlc.arg(since)::timestamptz)::timestamptz AS oldest
FROM oauth_clients
WHERE registered_from = @registered_from AND created_at > sqlc.arg(since)::timestamptz;

-- name: OAuthClientLockAddress :exec
-- Serialises the registrations from one address until the transaction ends,
-- so that counting them and inserting one keep the rate limit under
-- concurrency. The two-key form (class 7591, RFC 7591) has its own key space.
SELECT pg_advisory_xact_lock(7591, hashtext(@registered_from::text));

-- name: OAuthClientGetByID :one
SELECT * FROM oauth_clients WHERE id = @id;

-- name: OAuthGrantInsert :exec
INSERT INTO oauth_grants (id, client_id, workspace_id, user_id, resource, scopes,
                          consented_at, expires_at, hard_expires_at)
VALUES (@id, @client_id, @workspace_id, @user_id, @resource, @scopes,
        @consented_at, @expires_at, @hard_expires_at);

-- name: OAuthGrantLockMembership :one
-- The person's membership of the workspace, kept until the grant's
-- transaction ends: removing them meanwhile waits, then ends the grant.
SELECT role
FROM memberships
WHERE workspace_id = @workspace_id AND user_id = @user_id
FOR KEY SHARE;

-- name: OAuthTokenInsert :exec
INSERT INTO oauth_tokens (signature, kind, request_id, grant_id, client_id, requested_at, expires_at,
                          scopes, granted_scopes, form_data, session_data)
VALUES (@signature, @kind, @request_id, @grant_id, @client_id, @requested_at, @expires_at,
        @scopes, @granted_scopes, @form_data, @session_data);

-- name: OAuthAccessAuthenticate :one
-- One round trip: a live access token by signature, its live grant, the
-- person's current membership, the workspace, the connected app's client
-- name and the person's email (as a gift's trail names who prepared it).
-- The request is counted against the workspace's rate limit (rate_charge;
-- an empty rate_bucket counts nothing).
WITH found AS MATERIALIZED (
    SELECT g.id AS grant_id, g.workspace_id, g.user_id, g.scopes, g.resource, m.role, w.mode, w.is_demo,
           coalesce(c.client_name, '')::text AS client_name, u.email
    FROM oauth_tokens t
    JOIN oauth_grants g ON g.id = t.grant_id
    JOIN memberships m ON m.workspace_id = g.workspace_id AND m.user_id = g.user_id
    JOIN workspaces w ON w.id = g.workspace_id
    LEFT JOIN oauth_clients c ON c.id = g.client_id
    JOIN users u ON u.id = g.user_id
    WHERE t.kind = 'access_token' AND t.signature = @signature AND t.active
      AND t.expires_at > sqlc.arg(now)::timestamptz
      AND g.revoked_at IS NULL AND g.expires_at > sqlc.arg(now)::timestamptz
)
SELECT found.grant_id, found.workspace_id, found.user_id, found.scopes, found.resource, found.role, found.mode, found.is_demo,
       found.client_name, found.email,
       rc.rate_admitted::boolean AS rate_admitted, rc.rate_used::integer AS rate_used, rc.rate_reset_ms::bigint AS rate_reset_ms
FROM found
CROSS JOIN LATERAL rate_charge(found.workspace_id, @rate_bucket::text, @rate_units::integer, @rate_limit::integer, sqlc.narg(rate_at)::timestamptz) rc;

-- name: OAuthTokenGetLive :one
-- A token by kind and signature with whether its grant is still live.
SELECT t.signature, t.kind, t.request_id, t.grant_id, t.client_id, t.requested_at, t.expires_at,
       t.scopes, t.granted_scopes, t.form_data, t.session_data, t.active,
       (g.revoked_at IS NULL AND g.expires_at > sqlc.arg(now)::timestamptz)::boolean AS grant_live
FROM oauth_tokens t
JOIN oauth_grants g ON g.id = t.grant_id
WHERE t.kind = @kind AND t.signature = @signature;

-- name: OAuthTokenDeactivate :execrows
-- Only an active token is used up: of two concurrent redemptions, one wins.
UPDATE oauth_tokens SET active = false WHERE kind = @kind AND signature = @signature AND active;

-- name: OAuthTokenDelete :exec
DELETE FROM oauth_tokens WHERE kind = @kind AND signature = @signature;

-- name: OAuthTokensDeactivateByRequest :exec
UPDATE oauth_tokens SET active = false WHERE kind = @kind AND request_id = @request_id AND active;

-- name: OAuthGrantRevokeByRequest :exec
-- Ends the grant the tokens of a request belong to, and every token of it.
WITH g AS (
    UPDATE oauth_grants
    SET revoked_at = coalesce(revoked_at, sqlc.arg(now)::timestamptz)
    WHERE id IN (SELECT t.grant_id FROM oauth_tokens t WHERE t.request_id = @request_id)
    RETURNING id
)
UPDATE oauth_tokens tok SET active = false WHERE tok.grant_id IN (SELECT g.id FROM g) AND tok.active;

-- name: OAuthGrantExtend :exec
-- A refresh keeps the grant 30 days from now, never past its hard expiry.
UPDATE oauth_grants
SET expires_at = least(sqlc.arg(now)::timestamptz + interval '30 days', hard_expires_at)
WHERE id = @id AND revoked_at IS NULL;

-- name: OAuthGrantGetByID :one
SELECT * FROM oauth_grants WHERE id = @id;

-- name: OAuthGrantListLive :many
-- A person's live grants in a workspace with their clients, newest first.
SELECT g.id, g.client_id, c.client_name, g.resource, g.scopes, g.consented_at, g.expires_at
FROM oauth_grants g
JOIN oauth_clients c ON c.id = g.client_id
WHERE g.workspace_id = @workspace_id AND g.user_id = @user_id
  AND g.revoked_at IS NULL AND g.expires_at > sqlc.arg(now)::timestamptz
ORDER BY g.consented_at DESC, g.id;

-- name: OAuthGrantRevokeOwn :execrows
-- Ends one of a person's own grants.
UPDATE oauth_grants
SET revoked_at = coalesce(revoked_at, sqlc.arg(now)::timestamptz)
WHERE id = @id AND workspace_id = @workspace_id AND user_id = @user_id;

-- name: OAuthGrantRevokeOwnLive :one
-- Ends one of a person's own live grants, naming its app; no row when the
-- grant is not theirs or had already ended.
UPDATE oauth_grants g
SET revoked_at = sqlc.arg(now)::timestamptz
FROM oauth_clients c
WHERE g.id = @id AND g.workspace_id = @workspace_id AND g.user_id = @user_id AND g.revoked_at IS NULL
  AND c.id = g.client_id
RETURNING c.client_name;
