package artwork

import (
	"context"
	"fmt"

	"github.com/riverqueue/river"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// sweepBatch is how many unfinished uploads one statement of a sweep
// removes.
const sweepBatch = 500

// SweepPending removes the uploads that never finished: pending assets of
// any workspace older than stalePending (the process stopped between the
// intent and the record, or undoing a failed write failed too). Each row
// is deleted first, so that no upload can still turn it ready, then its
// bytes, outside any transaction; bytes that cannot be deleted are logged
// and left (a missing key is no failure). It returns how many it removed.
func (s *Service) SweepPending(ctx context.Context) (int, error) {
	n := 0
	for {
		rows, err := db.New(s.DB).ArtworkClaimStalePending(ctx, db.ArtworkClaimStalePendingParams{
			Before: s.Clock.Now().Add(-stalePending), MaxRows: sweepBatch,
		})
		if err != nil {
			return n, core.Internal(err)
		}
		for _, r := range rows {
			if err := s.deleteBlob(ctx, r.WorkspaceID, r.ID); err != nil {
				s.Log.Warn("artwork: sweep an unfinished upload's bytes", "asset", r.ID, "err", err)
			}
		}
		n += len(rows)
		if len(rows) < sweepBatch {
			return n, nil
		}
	}
}

// SweepPendingArgs is the hourly job that sweeps unfinished uploads
// (SweepPending).
type SweepPendingArgs struct{}

// Kind names the job.
func (SweepPendingArgs) Kind() string { return "artwork_sweep_pending" }

// SweepPendingWorker works SweepPendingArgs jobs.
type SweepPendingWorker struct {
	river.WorkerDefaults[SweepPendingArgs]
	Artwork *Service
}

// Work sweeps once.
func (w *SweepPendingWorker) Work(ctx context.Context, _ *river.Job[SweepPendingArgs]) error {
	if _, err := w.Artwork.SweepPending(ctx); err != nil {
		return fmt.Errorf("sweep unfinished artwork uploads: %w", err)
	}
	return nil
}

// deleteBlob deletes the bytes of asset id of workspace, if any were
// written.
func (s *Service) deleteBlob(ctx context.Context, workspaceID, id string) error {
	if s.Blobs == nil {
		return errNoBlobStore
	}
	return s.Blobs.Delete(ctx, blobKey(workspaceID, id))
}
