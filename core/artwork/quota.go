package artwork

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// stalePending is how long an unfinished upload's intent counts against
// the workspace's storage; after it, the sweep (SweepPending) removes it
// and its bytes.
const stalePending = time.Hour

// counter is the daily count a write takes.
type counter int

const (
	countUpload counter = iota
	countPhotoImport
)

// day is the UTC day of t as the counters key it, and the time left until
// the next one.
func day(t time.Time) (pgtype.Date, int64) {
	t = t.UTC()
	start := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	left := start.AddDate(0, 0, 1).Sub(t).Milliseconds()
	return pgtype.Date{Time: start, Valid: true}, max(left, 1)
}

// dailyLimit is RATE_LIMIT for a daily limit, waiting until UTC midnight.
func dailyLimit(what string, limit int, retryAfterMs int64) error {
	e := core.Errorf(core.CodeRateLimit, "this workspace reached %d %s today (UTC); the count resets at midnight UTC", limit, what)
	e.RetryAfterMs = retryAfterMs
	return e
}

// countAttempt counts one upload attempt for the workspace, committed on
// its own so that refused attempts count too, or refuses it with
// RATE_LIMIT once MaxAttemptsPerDay were made today.
func (s *Service) countAttempt(ctx context.Context, workspaceID string) error {
	d, left := day(s.Clock.Now())
	return core.AsCoreError(s.InTx(ctx, func(q *db.Queries) error {
		c, err := q.ArtworkDayLock(ctx, db.ArtworkDayLockParams{WorkspaceID: workspaceID, Day: d})
		if err != nil {
			return core.Internal(err)
		}
		if c.Attempts >= MaxAttemptsPerDay {
			return dailyLimit("artwork upload attempts", MaxAttemptsPerDay, left)
		}
		if err := q.ArtworkDayAddAttempt(ctx, db.ArtworkDayAddAttemptParams{WorkspaceID: workspaceID, Day: d}); err != nil {
			return core.Internal(err)
		}
		return nil
	}))
}

// overDaily is RATE_LIMIT (retryAfterMs left) when today's counts leave no
// room for one more write of c, else nil.
func overDaily(counts db.ArtworkDayLockRow, c counter, left int64) error {
	switch {
	case c == countUpload && counts.Uploads >= MaxUploadsPerDay:
		return dailyLimit("artwork uploads", MaxUploadsPerDay, left)
	case c == countPhotoImport && counts.PhotoImports >= MaxPhotoImportsPerDay:
		return dailyLimit("photo imports", MaxPhotoImportsPerDay, left)
	}
	return nil
}

// reserve is the intent of a write, in the caller's transaction: under the
// workspace's counter lock it checks the daily limit of c and the storage
// limits for one more file of size bytes, then counts it. Its codes are
// RATE_LIMIT (daily, retryAfterMs to midnight UTC) and
// INVALID_REQUEST_STATE (storage full) naming field.
func (s *Service) reserve(ctx context.Context, q *db.Queries, workspaceID string, c counter, size int64, field string) error {
	now := s.Clock.Now()
	d, left := day(now)
	counts, err := q.ArtworkDayLock(ctx, db.ArtworkDayLockParams{WorkspaceID: workspaceID, Day: d})
	if err != nil {
		return core.Internal(err)
	}
	if err := overDaily(counts, c, left); err != nil {
		return err
	}
	used, err := q.ArtworkStorageUsed(ctx, db.ArtworkStorageUsedParams{WorkspaceID: workspaceID, StaleBefore: now.Add(-stalePending)})
	if err != nil {
		return core.Internal(err)
	}
	if used.Files >= MaxFiles {
		return core.FieldError(core.CodeInvalidRequestState, field, "this workspace holds %d artwork files, the most it may", MaxFiles)
	}
	if used.Bytes+size > MaxStorageBytes {
		return core.FieldError(core.CodeInvalidRequestState, field, "this file would take the workspace's artwork over 3,000 MiB (%d bytes used)", used.Bytes)
	}
	p := db.ArtworkDayAddUploadParams{WorkspaceID: workspaceID, Day: d}
	if c == countPhotoImport {
		err = q.ArtworkDayAddPhotoImport(ctx, db.ArtworkDayAddPhotoImportParams(p))
	} else {
		err = q.ArtworkDayAddUpload(ctx, p)
	}
	if err != nil {
		return core.Internal(err)
	}
	return nil
}
