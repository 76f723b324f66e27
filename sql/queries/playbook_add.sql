-- Adds that scale: what add_to_playbook reads and locks instead of the
-- whole roster and an exclusive lock on the playbook.

-- name: CampaignGetForShare :one
-- Locks the campaign against writes to it (they lock it FOR UPDATE) but
-- not against other adds to its roster, which share the lock.
SELECT *
FROM campaigns
WHERE workspace_id = @workspace_id AND id = @id
FOR SHARE;

-- name: PlaybookLockForAdd :one
-- Locks playbook id against writes to it (they lock it FOR UPDATE) but not
-- against other adds to its roster, which share the lock, and reads what
-- adding a new person needs in the same round trip: how many people the
-- roster holds (committed: campaign_roster_sizes, kept at each commit; the
-- database checks the bound again at commit) and the next roster position
-- (the index on (campaign_id, position)), neither reading the whole
-- roster; the campaign's checkout in progress (CheckoutInProgress:
-- checkout_id '' when none); and the latest gift another campaign of the
-- workspace made in mode to the person's email, sourceSystem+externalId or
-- profile (prior_send_id '' when none; the person is not stored yet).
-- It takes no balance lock: an add tries that lock only once every lock it
-- may wait for is held (the identities', its person's), as the group and
-- the approval job take a person's lock before the balance's; a balance
-- held while waiting for another lock deadlocked with them.
SELECT
    sqlc.embed(c),
    coalesce((SELECT s.people FROM campaign_roster_sizes s WHERE s.campaign_id = c.id), 0)::int AS people,
    (SELECT coalesce(max(r.position), -1) + 1 FROM recipients r WHERE r.campaign_id = c.id)::int AS next_position,
    coalesce(k.id, '')::text AS checkout_id,
    coalesce(k.state, '')::text AS checkout_state,
    coalesce(k.expires_at, 'epoch')::timestamptz AS checkout_expires_at,
    coalesce((
        -- Each identity is looked up through its own index (the OFFSET 0
        -- fences keep the other conditions and the LIMIT out of the arms):
        -- never by walking the workspace's gifts until one matches, which a
        -- new person, who has none, would walk to the end. An identity not
        -- sent skips its arm before any scan (a one-time filter, in the
        -- generic plan too).
        SELECT m.id
        FROM (
            (SELECT g.id, g.created_at, g.campaign_id, g.mode, g.status FROM sends g
             WHERE @email::text <> '' AND g.workspace_id = c.workspace_id AND g.recipient_email = @email::text
           AND g.recipient_email <> '' OFFSET 0)
            UNION ALL
            (SELECT g.id, g.created_at, g.campaign_id, g.mode, g.status FROM sends g
             WHERE g.workspace_id = c.workspace_id AND g.recipient_source_system = @source_system::text AND g.recipient_external_id = @external_id::text
               AND g.recipient_source_system <> '' OFFSET 0)
            UNION ALL
            (SELECT g.id, g.created_at, g.campaign_id, g.mode, g.status FROM sends g
             WHERE @profile_url::text <> '' AND g.workspace_id = c.workspace_id AND g.recipient_profile_url = @profile_url::text
           AND g.recipient_profile_url <> '' OFFSET 0)
        ) AS m
        WHERE m.campaign_id <> c.id AND m.mode = @mode::text AND m.status <> 'cancelled'
        ORDER BY m.created_at DESC, m.id DESC
        LIMIT 1), '')::text AS prior_send_id
FROM campaigns c
LEFT JOIN checkouts k ON k.workspace_id = c.workspace_id AND k.campaign_id = c.id
                     AND k.state IN ('creating', 'open', 'paid')
WHERE c.workspace_id = @workspace_id AND c.id = @id
FOR SHARE OF c;

-- name: CampaignListForShare :many
-- CampaignGetForShare for several campaigns of the workspace at once (a
-- group commit), locked in ID order.
SELECT *
FROM campaigns
WHERE workspace_id = @workspace_id AND id = ANY(@ids::text[])
ORDER BY id
FOR SHARE;

-- name: PlaybookAddLockIdentities :exec
-- Transaction-scoped advisory locks on each identity an add names (keys as
-- built by core), in one fixed order: two adds of the same person take
-- turns, adds of different people do not wait for each other.
SELECT pg_advisory_xact_lock(h)
FROM (SELECT DISTINCT hashtextextended(k, 0) AS h FROM unnest(@keys::text[]) AS k ORDER BY 1) AS locks;

-- name: RecipientCandidatesForAdd :many
-- The roster people an add's identifiers name, each found through an index:
-- the recipientId, sourceSystem+externalId, email and profileUrl sent (""
-- for those not sent), in roster order. The recipientId is looked up by
-- the primary key alone (OFFSET 0 keeps the campaign out of the scan): a
-- planner without statistics otherwise walks the roster by position for it.
SELECT r.*
FROM recipients r
WHERE r.id IN (
    SELECT k.id FROM (SELECT c.id, c.campaign_id FROM recipients c WHERE c.id = @recipient_id::text OFFSET 0) AS k
    WHERE k.campaign_id = @campaign_id::text
    UNION ALL
    SELECT c.id FROM recipients c
    WHERE c.campaign_id = @campaign_id AND c.source_system = @source_system::text AND c.external_id = @external_id::text
      AND c.source_system <> ''
    UNION ALL
    SELECT c.id FROM recipients c WHERE c.campaign_id = @campaign_id AND c.email = @email::text AND c.email <> ''
    UNION ALL
    SELECT c.id FROM recipients c WHERE c.campaign_id = @campaign_id AND c.profile_url = @profile_url::text AND c.profile_url <> ''
)
ORDER BY r.position, r.queue_seq;

-- name: SendFirstOfRecipient :one
-- The person's first gift, as loadRoster's sendOf names it.
SELECT id
FROM sends
WHERE recipient_id = @recipient_id
ORDER BY created_at, id
LIMIT 1;

-- name: SendPriorForRecipients :many
-- For roster people without a gift of their own (one, or a group commit's),
-- the latest gift another campaign of the workspace made in mode to the
-- same email, sourceSystem+externalId or profile, as SendPriorForCampaigns
-- finds it: a row for each person of recipient_ids who has one. Each
-- identity is looked up through its own index (sends_workspace_email,
-- _source, _profile); the OFFSET 0 fences keep the other conditions and the
-- LIMIT out of the arms, so that no plan walks the workspace's gifts newest
-- first until one matches (a new person, who has none, would walk them all).
-- An identity the person does not have skips its arm before any scan.
SELECT r.id AS recipient_id, p.id AS send_id
FROM recipients r
CROSS JOIN LATERAL (
  SELECT m.id
  FROM (
    (SELECT s.id, s.created_at, s.campaign_id, s.mode, s.status FROM sends s
     WHERE r.email <> '' AND s.workspace_id = r.workspace_id AND s.recipient_email = r.email AND s.recipient_email <> '' OFFSET 0)
    UNION ALL
    (SELECT s.id, s.created_at, s.campaign_id, s.mode, s.status FROM sends s
     WHERE r.source_system <> '' AND s.workspace_id = r.workspace_id AND s.recipient_source_system = r.source_system
       AND s.recipient_external_id = r.external_id AND s.recipient_source_system <> '' OFFSET 0)
    UNION ALL
    (SELECT s.id, s.created_at, s.campaign_id, s.mode, s.status FROM sends s
     WHERE r.profile_url <> '' AND s.workspace_id = r.workspace_id AND s.recipient_profile_url = r.profile_url
       AND s.recipient_profile_url <> '' OFFSET 0)
  ) AS m
  WHERE m.campaign_id <> r.campaign_id AND m.mode = @mode::text AND m.status <> 'cancelled'
  ORDER BY m.created_at DESC, m.id DESC
  LIMIT 1
) p
WHERE r.id = ANY(@recipient_ids::text[])
  AND NOT EXISTS (SELECT 1 FROM sends own WHERE own.recipient_id = r.id);

-- name: RecipientGetForApprovalLocked :one
-- One roster person with their approval state, locked against another
-- decision about them; the caller holds the campaign (shared).
SELECT *
FROM recipients
WHERE campaign_id = @campaign_id AND id = @id
FOR UPDATE;

-- name: BalanceTryLock :one
-- Locks the balance for the transaction unless another transaction holds
-- it, in one statement (no savepoint): cents is -1 (a balance is never
-- negative) when another holds it or when the workspace has no balance
-- row, which present tells apart.
SELECT EXISTS (SELECT 1 FROM balances b WHERE b.workspace_id = @workspace_id AND b.mode = @mode) AS present,
       coalesce((SELECT l.cents FROM balances l WHERE l.workspace_id = @workspace_id AND l.mode = @mode FOR UPDATE SKIP LOCKED), -1)::bigint AS cents;
