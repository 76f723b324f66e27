-- name: GiftTrailNames :one
-- The names a gift's trail records, as they are now: who prepared it (the
-- key's name, the connected app's client name, or the person) with the
-- person behind that credential, and the person who decided it ('' for a
-- rule).
SELECT
    CASE @prepared_via::text
        WHEN 'key' THEN coalesce((SELECT k.name FROM api_keys k WHERE k.id = @prepared_credential::text), '')
        WHEN 'connection' THEN coalesce((SELECT c.client_name FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
                                         WHERE g.id = @prepared_credential::text), '')
        ELSE coalesce((SELECT u.name FROM users u WHERE u.id = @prepared_user::text), '')
    END::text AS prepared_name,
    coalesce((SELECT u.email FROM users u WHERE u.id = @prepared_user::text), '')::text AS prepared_email,
    coalesce((SELECT u.name FROM users u WHERE u.id = @decided_user::text), '')::text AS decided_name,
    coalesce((SELECT u.email FROM users u WHERE u.id = @decided_user::text), '')::text AS decided_email;
