-- name: ArtworkDayLock :one
-- Takes (creating it when needed) the workspace's counter row for day and
-- holds its lock until the transaction ends: every artwork limit is counted
-- under it.
INSERT INTO artwork_days (workspace_id, day)
VALUES (@workspace_id, @day)
ON CONFLICT (workspace_id, day) DO UPDATE SET day = EXCLUDED.day
RETURNING uploads, attempts, photo_imports;

-- name: ArtworkDayAddAttempt :exec
UPDATE artwork_days SET attempts = attempts + 1
WHERE workspace_id = @workspace_id AND day = @day;

-- name: ArtworkDayAddUpload :exec
UPDATE artwork_days SET uploads = uploads + 1
WHERE workspace_id = @workspace_id AND day = @day;

-- name: ArtworkDayAddPhotoImport :exec
UPDATE artwork_days SET photo_imports = photo_imports + 1
WHERE workspace_id = @workspace_id AND day = @day;

-- name: ArtworkDayReturnUpload :exec
-- An upload whose file could not be stored gives its count back.
UPDATE artwork_days SET uploads = greatest(uploads - 1, 0)
WHERE workspace_id = @workspace_id AND day = @day;

-- name: ArtworkStorageUsed :one
-- What the workspace's assets hold: ready ones, and pending ones created
-- since stale_before (an upload still under way); an older pending asset's
-- upload never finished and no longer counts (ArtworkClaimStalePending
-- removes it).
SELECT count(*)::int AS files, coalesce(sum(bytes), 0)::bigint AS bytes
FROM artwork_assets
WHERE workspace_id = @workspace_id AND (state <> 'pending' OR created_at >= @stale_before);

-- name: ArtworkClaimStalePending :many
-- Removes at most max_rows pending assets of any workspace created before
-- before (the process stopped between an upload's intent and its record)
-- and returns them, so that the caller deletes their bytes, if any were
-- written. Rows another sweep holds are left to it.
DELETE FROM artwork_assets
WHERE id IN (
    SELECT a.id FROM artwork_assets a
    WHERE a.state = 'pending' AND a.created_at < @before
    ORDER BY a.created_at
    LIMIT @max_rows
    FOR UPDATE SKIP LOCKED
)
RETURNING workspace_id, id;

-- name: ArtworkInsert :one
INSERT INTO artwork_assets (id, workspace_id, filename, mime, bytes, purpose, width, height, source_url, state, created_by, created_at)
VALUES (@id, @workspace_id, @filename, @mime, @bytes, @purpose, @width, @height, @source_url, 'pending', @created_by, @created_at)
RETURNING *;

-- name: ArtworkMarkReady :execrows
UPDATE artwork_assets SET state = 'ready'
WHERE workspace_id = @workspace_id AND id = @id AND state = 'pending';

-- name: ArtworkDeletePending :execrows
DELETE FROM artwork_assets
WHERE workspace_id = @workspace_id AND id = @id AND state = 'pending';

-- name: ArtworkGet :one
SELECT *
FROM artwork_assets
WHERE workspace_id = @workspace_id AND id = @id;

-- name: ArtworkListReady :many
-- The workspace's ready assets, newest first.
SELECT *
FROM artwork_assets
WHERE workspace_id = @workspace_id AND state = 'ready'
ORDER BY created_at DESC, id DESC
LIMIT @max_rows;

-- name: ArtworkReadyAmong :many
-- Which of ids are ready assets of the workspace, with what their checks
-- read and where a photo was imported from.
SELECT id, mime, purpose, width, height, source_url
FROM artwork_assets
WHERE workspace_id = @workspace_id AND state = 'ready' AND id = ANY(@ids::text[]);

-- name: ArtworkRecentPhotoImport :one
-- The newest ready portrait of the workspace imported from source_url since
-- since: an import sent again reuses the photos its first try fetched.
SELECT *
FROM artwork_assets
WHERE workspace_id = @workspace_id AND source_url = @source_url AND state = 'ready' AND purpose = 'portrait'
  AND created_at >= @since
ORDER BY created_at DESC, id
LIMIT 1;
