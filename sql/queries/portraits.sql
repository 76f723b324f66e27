-- name: PortraitLock :one
-- A gift's portrait, locked for a change.
SELECT id, status, portrait_state, portrait_version, portrait_asset_id, portrait_source_url, portrait_approved_at
FROM sends
WHERE workspace_id = @workspace_id AND id = @id
FOR UPDATE;

-- name: PortraitSet :exec
UPDATE sends
SET portrait_state = @portrait_state, portrait_version = @portrait_version, portrait_asset_id = @portrait_asset_id,
    portrait_source_url = @portrait_source_url, portrait_approved_at = @portrait_approved_at, updated_at = @updated_at
WHERE workspace_id = @workspace_id AND id = @id;
