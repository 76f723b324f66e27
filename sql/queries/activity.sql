-- name: ActivityInsert :exec
-- Records one action of a workspace, naming who acted as they are named
-- now: a key's name, a connected app's client name (through its grant),
-- or the person; with the person behind it (a key's owner, who connected
-- the app). A key or grant of another workspace names nobody.
INSERT INTO activity (id, workspace_id, kind, mode, actor_kind, actor_ref, actor_name, actor_email,
                      campaign_id, recipient_id, send_id, amount_cents, subject, created_at)
SELECT @id::text, @workspace_id::text, @kind::text, @mode::text, @actor_kind::text, @actor_ref::text,
       CASE @actor_kind::text
           WHEN 'key' THEN coalesce((SELECT k.name FROM api_keys k
                                     WHERE k.id = @actor_ref::text AND k.workspace_id = @workspace_id::text), '')
           WHEN 'connection' THEN coalesce((SELECT c.client_name FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
                                            WHERE g.id = @actor_ref::text AND g.workspace_id = @workspace_id::text), '')
           WHEN 'person' THEN coalesce((SELECT u.name FROM users u WHERE u.id = @user_id::text), '')
           ELSE @giftwell_name::text
       END,
       coalesce((SELECT u.email FROM users u WHERE u.id = @user_id::text), ''),
       @campaign_id::text, @recipient_id::text, @send_id::text, @amount_cents::bigint, @subject::text, @created_at::timestamptz;

-- name: ActivityList :many
-- A page of a workspace's activity, newest first, after the keyset
-- position (before_at, before_id) when given, narrowed to one actor (kind
-- and ref) unless actor_kind is empty; with the names of its playbook and
-- person.
SELECT f.at, f.id, f.kind, f.mode, f.actor_kind, f.actor_ref, f.actor_name, f.actor_email, f.rule_version,
       f.campaign_id, coalesce(c.name, '')::text AS campaign_name,
       coalesce(r.name, '')::text AS recipient_name, coalesce(r.email, '')::text AS recipient_email,
       f.send_id, f.amount_cents, f.subject
FROM activity_feed f
LEFT JOIN campaigns c ON c.id = f.campaign_id AND c.workspace_id = f.workspace_id
LEFT JOIN sends s ON f.recipient_id = '' AND s.id = f.send_id AND s.workspace_id = f.workspace_id
LEFT JOIN recipients r ON r.id = coalesce(s.recipient_id, f.recipient_id) AND r.workspace_id = f.workspace_id
WHERE f.workspace_id = @workspace_id::text
  AND (@actor_kind::text = '' OR (f.actor_kind = @actor_kind::text AND f.actor_ref = @actor_ref::text))
  AND (sqlc.narg('before_at')::timestamptz IS NULL OR (f.at, f.id) < (sqlc.narg('before_at')::timestamptz, @before_id::text))
ORDER BY f.at DESC, f.id DESC
LIMIT @max_rows;

-- name: ActivityActors :many
-- The people and agents a workspace's activity names, by kind then name,
-- each once under the name it was last seen with.
SELECT f.actor_kind, f.actor_ref, (array_agg(f.actor_name ORDER BY f.at DESC))[1]::text AS actor_name,
       (array_agg(f.actor_email ORDER BY f.at DESC))[1]::text AS actor_email
FROM activity_feed f
WHERE f.workspace_id = @workspace_id::text
GROUP BY f.actor_kind, f.actor_ref
ORDER BY f.actor_kind, 3;
