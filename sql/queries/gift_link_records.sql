-- Gift-link records (get_gift_link_records): one record per roster person
-- of a campaign, with their gift and its link
-- (docs/decisions/0069-gift-link-records.md). Both queries select the same
-- records with the same filters; keep their CTEs identical.
--
-- A person's gift is the one that is not cancelled, else their latest
-- cancelled one. availability_reason is '' when the gift's link can be sent
-- now (active, unexpired, the gift still awaiting its address); otherwise it
-- says why not. The name, email, company and profile URL are the gift's
-- current recipient's (a regift changes them) when the gift has a snapshot,
-- the roster's otherwise. @pattern is an ILIKE pattern with \ escaping, ''
-- for no search.

-- name: GiftLinkRecordList :many
-- A page of records in roster order, after (@after_position, @after_id).
WITH rec AS (
    SELECT r.id AS recipient_id, r.position, r.source_system, r.external_id, r.import_id, r.import_row_id,
           CASE WHEN g.recipient IS NULL OR g.recipient = '{}'::jsonb THEN r.name ELSE coalesce(g.recipient ->> 'name', '') END::text AS name,
           CASE WHEN g.recipient IS NULL OR g.recipient = '{}'::jsonb THEN r.email ELSE coalesce(g.recipient ->> 'email', '') END::text AS email,
           CASE WHEN g.recipient IS NULL OR g.recipient = '{}'::jsonb THEN r.company ELSE coalesce(g.recipient ->> 'company', '') END::text AS company,
           CASE WHEN g.recipient IS NULL OR g.recipient = '{}'::jsonb THEN r.profile_url ELSE coalesce(g.recipient ->> 'profileUrl', '') END::text AS profile_url,
           coalesce(g.id, '') AS gift_id, coalesce(g.product_id, '') AS product_id, coalesce(g.status, '') AS gift_status,
           coalesce(g.mode, '') AS gift_mode,
           coalesce(l.generation, 0) AS link_generation, l.token_salt, l.expires_at AS link_expires_at,
           CASE
               WHEN g.id IS NULL AND r.approval_state = 'skipped' THEN 'skipped'
               WHEN g.id IS NULL THEN 'no_gift'
               WHEN g.status = 'cancelled' THEN 'gift_cancelled'
               WHEN l.send_id IS NULL AND g.status = 'awaiting_address' THEN 'link_pending'
               WHEN l.send_id IS NULL THEN 'address_known'
               WHEN l.state = 'revoked' THEN 'link_revoked'
               WHEN l.state = 'used' THEN 'link_used'
               WHEN g.status = 'expired' OR l.expires_at <= sqlc.arg(now)::timestamptz THEN 'link_expired'
               WHEN g.status <> 'awaiting_address' THEN 'link_used'
               ELSE ''
           END::text AS availability_reason
    FROM recipients r
    LEFT JOIN sends g ON g.id = (
        SELECT s.id FROM sends s WHERE s.recipient_id = r.id
        ORDER BY s.status = 'cancelled', s.created_at DESC, s.id DESC
        LIMIT 1)
    LEFT JOIN gift_links l ON l.send_id = g.id
    WHERE r.workspace_id = @workspace_id AND r.campaign_id = @campaign_id
)
SELECT recipient_id, position, source_system, external_id, import_id, import_row_id, name, email, company, profile_url,
       gift_id, product_id, gift_status, gift_mode, link_generation, token_salt, link_expires_at, availability_reason
FROM rec
WHERE (cardinality(@recipient_ids::text[]) = 0 OR recipient_id = ANY (@recipient_ids::text[]))
  AND (cardinality(@gift_ids::text[]) = 0 OR gift_id = ANY (@gift_ids::text[]))
  AND (@pattern::text = '' OR name ILIKE @pattern ESCAPE '\' OR email ILIKE @pattern ESCAPE '\'
       OR company ILIKE @pattern ESCAPE '\' OR external_id ILIKE @pattern ESCAPE '\'
       OR source_system ILIKE @pattern ESCAPE '\' OR profile_url ILIKE @pattern ESCAPE '\')
  AND (@availability::text = '' OR (@availability::text = 'ready') = (availability_reason = ''))
  AND (position, recipient_id) > (@after_position::int, @after_id::text)
ORDER BY position, recipient_id
LIMIT @row_limit;

-- name: GiftLinkRecordCounts :one
-- The whole selection's counts and its fingerprint: a digest of every
-- selected record's identity, versions and availability, which changes when
-- the roster, a gift or a link of the selection changes (CURSOR_STALE).
WITH rec AS (
    SELECT r.id AS recipient_id, r.position, r.source_system, r.external_id, r.import_id, r.import_row_id,
           r.updated_at AS recipient_updated_at,
           CASE WHEN g.recipient IS NULL OR g.recipient = '{}'::jsonb THEN r.name ELSE coalesce(g.recipient ->> 'name', '') END::text AS name,
           CASE WHEN g.recipient IS NULL OR g.recipient = '{}'::jsonb THEN r.email ELSE coalesce(g.recipient ->> 'email', '') END::text AS email,
           CASE WHEN g.recipient IS NULL OR g.recipient = '{}'::jsonb THEN r.company ELSE coalesce(g.recipient ->> 'company', '') END::text AS company,
           CASE WHEN g.recipient IS NULL OR g.recipient = '{}'::jsonb THEN r.profile_url ELSE coalesce(g.recipient ->> 'profileUrl', '') END::text AS profile_url,
           coalesce(g.id, '') AS gift_id, coalesce(g.status, '') AS gift_status, g.updated_at AS gift_updated_at,
           coalesce(l.generation, 0) AS link_generation, coalesce(l.state, '') AS link_state,
           CASE
               WHEN g.id IS NULL AND r.approval_state = 'skipped' THEN 'skipped'
               WHEN g.id IS NULL THEN 'no_gift'
               WHEN g.status = 'cancelled' THEN 'gift_cancelled'
               WHEN l.send_id IS NULL AND g.status = 'awaiting_address' THEN 'link_pending'
               WHEN l.send_id IS NULL THEN 'address_known'
               WHEN l.state = 'revoked' THEN 'link_revoked'
               WHEN l.state = 'used' THEN 'link_used'
               WHEN g.status = 'expired' OR l.expires_at <= sqlc.arg(now)::timestamptz THEN 'link_expired'
               WHEN g.status <> 'awaiting_address' THEN 'link_used'
               ELSE ''
           END::text AS availability_reason
    FROM recipients r
    LEFT JOIN sends g ON g.id = (
        SELECT s.id FROM sends s WHERE s.recipient_id = r.id
        ORDER BY s.status = 'cancelled', s.created_at DESC, s.id DESC
        LIMIT 1)
    LEFT JOIN gift_links l ON l.send_id = g.id
    WHERE r.workspace_id = @workspace_id AND r.campaign_id = @campaign_id
)
SELECT count(*)::int AS total,
       count(*) FILTER (WHERE availability_reason = '')::int AS ready,
       coalesce(md5(string_agg(
           concat_ws('|', recipient_id, position, (extract(epoch FROM recipient_updated_at) * 1000000)::bigint,
                     gift_id, gift_status, (extract(epoch FROM gift_updated_at) * 1000000)::bigint,
                     link_generation, link_state, availability_reason),
           ',' ORDER BY position, recipient_id)), '')::text AS fingerprint
FROM rec
WHERE (cardinality(@recipient_ids::text[]) = 0 OR recipient_id = ANY (@recipient_ids::text[]))
  AND (cardinality(@gift_ids::text[]) = 0 OR gift_id = ANY (@gift_ids::text[]))
  AND (@pattern::text = '' OR name ILIKE @pattern ESCAPE '\' OR email ILIKE @pattern ESCAPE '\'
       OR company ILIKE @pattern ESCAPE '\' OR external_id ILIKE @pattern ESCAPE '\'
       OR source_system ILIKE @pattern ESCAPE '\' OR profile_url ILIKE @pattern ESCAPE '\')
  AND (@availability::text = '' OR (@availability::text = 'ready') = (availability_reason = ''));
