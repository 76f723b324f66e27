-- Distribution: gift-link exports, staged source uploads and source imports
-- (docs/decisions/0078-gift-link-exports.md,
-- 0079-chunked-source-uploads.md, 0080-recipient-imports.md).

-- name: GiftLinkExportInsert :exec
INSERT INTO gift_link_exports (id, workspace_id, campaign_id, params, recipient_ids, columns, filename,
                               include_unavailable, created_by, created_at, expires_at)
VALUES (@id, @workspace_id, @campaign_id, @params, @recipient_ids::text[], @columns::text[], @filename,
        @include_unavailable, @created_by, @created_at, @expires_at);

-- name: GiftLinkExportGet :one
SELECT * FROM gift_link_exports WHERE workspace_id = @workspace_id AND id = @id;

-- name: GiftLinkExportsDeleteExpired :exec
-- Exports a day past their expiry go; until then a download says expired.
DELETE FROM gift_link_exports WHERE expires_at < @before;

-- name: SourceUploadLockWorkspace :exec
-- Serialises a workspace's staged-upload writes (the capacity check).
SELECT pg_advisory_xact_lock(hashtextextended('giftwell source uploads ' || @workspace_id::text, 0));

-- name: SourceUploadsDeleteExpired :exec
-- Unfinished uploads past their 6 hours go (their parts with them).
DELETE FROM source_uploads WHERE workspace_id = @workspace_id AND expires_at <= @now;

-- name: SourceUploadGet :one
SELECT * FROM source_uploads WHERE workspace_id = @workspace_id AND id = @id;

-- name: SourceUploadCapacity :one
-- The workspace's staged uploads, the bytes they reserve and when the
-- first of them expires (the epoch when there is none).
SELECT count(*)::int AS uploads, coalesce(sum(total_bytes), 0)::bigint AS bytes,
       coalesce(min(expires_at), 'epoch'::timestamptz)::timestamptz AS first_expiry
FROM source_uploads WHERE workspace_id = @workspace_id;

-- name: SourceUploadInsert :exec
INSERT INTO source_uploads (workspace_id, id, campaign_id, part_count, total_bytes, created_at, expires_at)
VALUES (@workspace_id, @id, @campaign_id, @part_count, @total_bytes, @created_at, @expires_at);

-- name: SourceUploadPartGet :one
SELECT data FROM source_upload_parts WHERE workspace_id = @workspace_id AND upload_id = @upload_id AND part_index = @part_index;

-- name: SourceUploadPartInsert :exec
INSERT INTO source_upload_parts (workspace_id, upload_id, part_index, data)
VALUES (@workspace_id, @upload_id, @part_index, @data);

-- name: SourceUploadProgress :one
SELECT count(*)::int AS parts, coalesce(sum(length(data)), 0)::bigint AS bytes
FROM source_upload_parts WHERE workspace_id = @workspace_id AND upload_id = @upload_id;

-- name: SourceUploadComplete :exec
UPDATE source_uploads SET completed_at = @completed_at WHERE workspace_id = @workspace_id AND id = @id;

-- name: SourceUploadParts :many
SELECT data FROM source_upload_parts WHERE workspace_id = @workspace_id AND upload_id = @upload_id ORDER BY part_index;

-- name: SourceUploadDelete :exec
DELETE FROM source_uploads WHERE workspace_id = @workspace_id AND id = @id;

-- name: RecipientImportGet :one
SELECT * FROM recipient_imports WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id AND id = @id;

-- name: RecipientImportLock :one
SELECT * FROM recipient_imports WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id AND id = @id FOR UPDATE;

-- name: RecipientImportList :many
SELECT * FROM recipient_imports WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id ORDER BY created_at, id;

-- name: RecipientImportRowCount :one
-- Rows imported into a campaign so far (500 at most).
SELECT count(*)::int FROM recipient_import_rows WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id;

-- name: RecipientImportInsert :exec
INSERT INTO recipient_imports (workspace_id, campaign_id, id, headers, retained, digest, summary, created_at, updated_at)
VALUES (@workspace_id, @campaign_id, @id, @headers::text[], @retained::int[], @digest, @summary, @created_at, @created_at);

-- name: RecipientImportUpdate :exec
UPDATE recipient_imports SET retained = @retained::int[], summary = @summary, updated_at = @updated_at
WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id AND id = @id;

-- name: RecipientImportRowInsert :exec
INSERT INTO recipient_import_rows (workspace_id, campaign_id, import_id, row_id, position, cells, recipient_id)
VALUES (@workspace_id, @campaign_id, @import_id, @row_id, @position, @cells::text[], @recipient_id);

-- name: RecipientImportRowsClearColumns :exec
-- Empties the cells at the 1-based positions @positions of every row.
UPDATE recipient_import_rows r
SET cells = (SELECT coalesce(array_agg(CASE WHEN c.i = ANY (@positions::int[]) THEN '' ELSE c.v END ORDER BY c.i), '{}')
             FROM unnest(r.cells) WITH ORDINALITY AS c(v, i))
WHERE r.workspace_id = @workspace_id AND r.campaign_id = @campaign_id AND r.import_id = @import_id;

-- name: RecipientImportRowsOf :many
-- The import rows behind roster people, for an export's source columns.
SELECT import_id, row_id, recipient_id, cells FROM recipient_import_rows
WHERE workspace_id = @workspace_id AND campaign_id = @campaign_id AND recipient_id = ANY (@recipient_ids::text[]);
