-- name: GiftLinkInsert :exec
INSERT INTO gift_links (send_id, workspace_id, campaign_id, token_salt, created_at, expires_at, updated_at)
VALUES (@send_id, @workspace_id, @campaign_id, @token_salt, @created_at, @expires_at, @created_at);

-- name: SendSetLinkGeneration :exec
UPDATE sends
SET gift_link_generation = @generation
WHERE id = @id;

-- name: SendSetAddressConfirmed :exec
UPDATE sends
SET address_confirmed_at = @confirmed_at, updated_at = @confirmed_at
WHERE id = @id;

-- name: GiftLinkTokenInsert :exec
INSERT INTO gift_link_tokens (token_hash, send_id, generation)
VALUES (@token_hash, @send_id, @generation);

-- name: GiftLinkByTokenHash :one
-- The link a token (by its SHA-256) belongs to, the generation the token was
-- made for, and the gift.
SELECT sqlc.embed(l), t.generation AS token_generation, sqlc.embed(s)
FROM gift_link_tokens t
JOIN gift_links l ON l.send_id = t.send_id
JOIN sends s ON s.id = t.send_id
WHERE t.token_hash = @token_hash;

-- name: GiftLinkGet :one
-- A workspace's link with its gift.
SELECT sqlc.embed(l), sqlc.embed(s)
FROM gift_links l
JOIN sends s ON s.id = l.send_id
WHERE l.workspace_id = @workspace_id AND l.send_id = @send_id;

-- name: GiftLinkGetForUpdate :one
-- A link and its gift, both locked (the gift first, as every gift move locks
-- it) for a change of either.
SELECT sqlc.embed(l), sqlc.embed(s)
FROM sends s
JOIN gift_links l ON l.send_id = s.id
WHERE s.id = @send_id
FOR UPDATE OF s, l;

-- name: GiftLinkListByCampaign :many
-- A campaign's links with their gifts, oldest gift first.
SELECT sqlc.embed(l), sqlc.embed(s)
FROM gift_links l
JOIN sends s ON s.id = l.send_id
WHERE l.workspace_id = @workspace_id AND l.campaign_id = @campaign_id
ORDER BY s.created_at, s.id;

-- name: GiftLinkSetMessage :exec
UPDATE gift_links
SET message = @message, branding = @branding, message_version = message_version + 1, updated_at = @updated_at
WHERE send_id = @send_id;

-- name: GiftLinkRegift :exec
-- A new generation: a new token (salt), a new 14 days, active again (a
-- link its recipient used to decline is unused again).
UPDATE gift_links
SET generation = generation + 1, token_salt = @token_salt, message = @message,
    message_version = message_version + 1, state = 'active', revoked_at = NULL, used_at = NULL,
    created_at = @created_at, expires_at = @expires_at, updated_at = @created_at
WHERE send_id = @send_id;

-- name: GiftLinkRevoke :exec
UPDATE gift_links
SET state = 'revoked', revoked_at = @revoked_at, updated_at = @revoked_at
WHERE send_id = @send_id;

-- name: GiftLinkUse :exec
UPDATE gift_links
SET state = 'used', used_at = @used_at, updated_at = @used_at
WHERE send_id = @send_id;

-- name: GiftLinkMarkOpened :execrows
-- Records that the current generation was opened; no row when it already was.
UPDATE gift_links
SET opened_generation = generation
WHERE send_id = @send_id AND opened_generation < generation;

-- name: GiftLinkExpiredList :many
-- Active links past their end whose gifts still wait for an address.
SELECT l.send_id
FROM gift_links l
JOIN sends s ON s.id = l.send_id
WHERE l.state = 'active' AND l.expires_at <= @now AND s.status = 'awaiting_address'
ORDER BY l.expires_at
LIMIT @max_rows;

-- name: GiftsWithoutLink :many
-- Gifts that wait for their recipient's address but have no link (made
-- before links existed).
SELECT s.id, s.workspace_id, s.campaign_id, s.created_at
FROM sends s
LEFT JOIN gift_links l ON l.send_id = s.id
WHERE s.status = 'awaiting_address' AND l.send_id IS NULL
ORDER BY s.created_at, s.id;

-- name: GiftLinkChangeInsert :exec
INSERT INTO gift_link_changes (workspace_id, campaign_id, send_id, kind, generation, message_version, message,
                               branding, changed_by, created_at)
VALUES (@workspace_id, @campaign_id, @send_id, @kind, @generation, @message_version, @message, @branding,
        @changed_by, @created_at);

-- name: GiftLinkChangeListByCampaign :many
SELECT *
FROM gift_link_changes
WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id
ORDER BY id DESC
LIMIT @max_rows;

-- name: GiftAddressInsert :exec
INSERT INTO gift_addresses (send_id, name, street, street2, city, state, zip, confirmed_at)
VALUES (@send_id, @name, @street, @street2, @city, @state, @zip, @confirmed_at);

-- name: GiftAddressGet :one
SELECT *
FROM gift_addresses
WHERE send_id = @send_id;

-- name: GiftLinkGuessCount :one
-- Counts a miss at /g/ for a client address in the current window and
-- returns the misses of that window so far.
INSERT INTO gift_link_guesses (client_ip, window_at, misses)
VALUES (@client_ip, @window_at, 1)
ON CONFLICT (client_ip, window_at) DO UPDATE SET misses = gift_link_guesses.misses + 1
RETURNING misses;

-- name: GiftLinkGuessMisses :one
SELECT coalesce((SELECT misses FROM gift_link_guesses WHERE client_ip = @client_ip AND window_at = @window_at), 0)::int;

-- name: GiftLinkGuessDeleteBefore :execrows
DELETE FROM gift_link_guesses
WHERE window_at < @before;

-- name: SendSetRecipient :exec
-- A regift: the gift is for another person, who confirms their own address.
UPDATE sends
SET recipient = @recipient, recipient_name = @recipient_name, recipient_email = @recipient_email,
    recipient_source_system = '', recipient_external_id = '', recipient_profile_url = '', updated_at = @updated_at
WHERE id = @id;

-- name: SendGetForShipping :one
-- A gift's recipient snapshot, for the staff's shipping address.
SELECT recipient
FROM sends
WHERE id = @id;
