-- name: RecipientInsertMany :copyfrom
INSERT INTO recipients (
    id, workspace_id, campaign_id, position, name, email, company, title, source_system, external_id,
    profile_url, context, message, custom_tag, asset_ids, photo, adult_recipient_confirmed, details,
    import_id, import_row_id, address_mode, address, city, state, zip, country, created_at, updated_at,
    prepared_via, prepared_credential, prepared_user
) VALUES (
    @id, @workspace_id, @campaign_id, @position, @name, @email, @company, @title, @source_system, @external_id,
    @profile_url, @context, @message, @custom_tag, @asset_ids, @photo, @adult_recipient_confirmed, @details,
    @import_id, @import_row_id, @address_mode, @address, @city, @state, @zip, @country, @created_at, @updated_at,
    @prepared_via, @prepared_credential, @prepared_user
);

-- name: RecipientInsertQueued :exec
-- One person added to an active playbook, in their first queue state (an
-- add: campaign.InsertQueued), as one statement that rides with the add's
-- next one (no COPY round trips for one row).
INSERT INTO recipients (
    id, workspace_id, campaign_id, position, name, email, company, title, source_system, external_id,
    profile_url, context, message, custom_tag, asset_ids, photo, adult_recipient_confirmed, details,
    import_id, import_row_id, address_mode, address, city, state, zip, country, created_at, updated_at,
    prepared_via, prepared_credential, prepared_user, approval_state, approval_reason
) VALUES (
    @id, @workspace_id, @campaign_id, @position, @name, @email, @company, @title, @source_system, @external_id,
    @profile_url, @context, @message, @custom_tag, @asset_ids, @photo, @adult_recipient_confirmed, @details,
    @import_id, @import_row_id, @address_mode, @address, @city, @state, @zip, @country, @created_at, @updated_at,
    @prepared_via, @prepared_credential, @prepared_user, @approval_state, @approval_reason
);

-- name: RecipientListByCampaign :many
-- The roster in roster order.
SELECT *
FROM recipients
WHERE campaign_id = @campaign_id
ORDER BY position, queue_seq;

-- name: RecipientCountsByWorkspace :many
SELECT campaign_id, count(*)::int AS people
FROM recipients
WHERE workspace_id = @workspace_id
GROUP BY campaign_id;

-- name: RecipientUpdate :execrows
-- Rewrites one person's record (update_campaign merges the supplied fields
-- into the stored record first).
UPDATE recipients
SET name                      = @name,
    email                     = @email,
    company                   = @company,
    title                     = @title,
    source_system             = @source_system,
    external_id               = @external_id,
    profile_url               = @profile_url,
    context                   = @context,
    message                   = @message,
    custom_tag                = @custom_tag,
    asset_ids                 = @asset_ids,
    photo                     = @photo,
    adult_recipient_confirmed = @adult_recipient_confirmed,
    details                   = @details,
    import_id                 = @import_id,
    import_row_id             = @import_row_id,
    address_mode              = @address_mode,
    address                   = @address,
    city                      = @city,
    state                     = @state,
    zip                       = @zip,
    country                   = @country,
    updated_at                = @updated_at
WHERE campaign_id = @campaign_id AND id = @id;

-- name: RecipientSetMessage :execrows
UPDATE recipients
SET message = @message, updated_at = @updated_at
WHERE campaign_id = @campaign_id AND id = ANY(@ids::text[]);

-- name: RecipientDeleteMany :execrows
DELETE FROM recipients
WHERE campaign_id = @campaign_id AND id = ANY(@ids::text[]);

-- name: RecipientApproveRepeats :execrows
-- Marks people approved for a repeat gift; an earlier approval is kept.
UPDATE recipients
SET repeat_approved_by = CASE WHEN repeat_approved_at IS NULL THEN @approved_by ELSE repeat_approved_by END,
    repeat_approved_at = coalesce(repeat_approved_at, sqlc.arg(now)::timestamptz),
    updated_at         = sqlc.arg(now)::timestamptz
WHERE campaign_id = @campaign_id AND id = ANY(@ids::text[]);
