-- +goose Up
-- Distribution and files: the bytes of unfinished uploads are swept.
--
-- An upload whose process stopped between its intent (a pending asset) and
-- its record (ready) leaves the pending row and maybe the bytes; the hourly
-- sweep (artwork.SweepPendingArgs) finds them through this index, deletes
-- the row, then the bytes
-- (docs/decisions/0081-artwork-storage-and-limits.md).
CREATE INDEX artwork_assets_pending ON artwork_assets (created_at) WHERE state = 'pending';

-- +goose Down
DROP INDEX artwork_assets_pending;
