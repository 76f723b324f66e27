-- name: WorkspaceSettingsGet :one
-- The workspace's stored settings (null columns when never saved) and the
-- defaults: the workspace's name and its owner's name.
SELECT w.name AS workspace_name,
       o.name AS owner_name,
       s.company,
       s.sender_name,
       s.meeting_url,
       s.website,
       s.brand_color
FROM workspaces w
LEFT JOIN memberships om ON om.workspace_id = w.id AND om.role = 'owner'
LEFT JOIN users o ON o.id = om.user_id
LEFT JOIN workspace_settings s ON s.workspace_id = w.id
WHERE w.id = @workspace_id;

-- name: WorkspaceSettingsLock :exec
-- Serialises settings updates of a workspace for the transaction.
SELECT id FROM workspaces WHERE id = @workspace_id FOR UPDATE;

-- name: WorkspaceSettingsUpsert :exec
INSERT INTO workspace_settings (workspace_id, company, sender_name, meeting_url, website, brand_color, updated_at, updated_by)
VALUES (@workspace_id, @company, @sender_name, @meeting_url, @website, @brand_color, @updated_at, @updated_by)
ON CONFLICT (workspace_id) DO UPDATE
SET company = excluded.company,
    sender_name = excluded.sender_name,
    meeting_url = excluded.meeting_url,
    website = excluded.website,
    brand_color = excluded.brand_color,
    updated_at = excluded.updated_at,
    updated_by = excluded.updated_by;
