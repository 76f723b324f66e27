package artwork

import (
	"context"
	"errors"
	"fmt"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// UploadInput is an upload: the file's bytes with what the caller says of
// them. The field names name the request's fields in messages (REST reads
// the filename from X-Artwork-Filename and the type from Content-Type; MCP
// sends base64).
type UploadInput struct {
	Filename string
	Mime     string
	Purpose  string
	Body     []byte
	// Fields names the request's fields; the zero value is MCP's names.
	Fields UploadFields
}

// UploadFields names an upload's fields as the caller sent them.
type UploadFields struct {
	Filename, Mime, Purpose, Body string
}

// fields fills the default names.
func (f UploadFields) orDefault() UploadFields {
	if f == (UploadFields{}) {
		return UploadFields{Filename: "filename", Mime: "mime", Purpose: "purpose", Body: "base64"}
	}
	return f
}

// Upload stores a file for p's workspace and returns its asset. Every call
// counts as an attempt (MaxAttemptsPerDay); the type is checked against the
// content's own signature, the filename against the spec's rule, and a
// portrait (purpose portrait) against the portrait bounds from the image's
// header alone. Codes: VALIDATION_ERROR naming the field; RATE_LIMIT with
// retryAfterMs to midnight UTC for the daily limits; INVALID_REQUEST_STATE
// when the workspace's storage is full; SERVICE_UNAVAILABLE (retry_later,
// nothing saved) when the blob store fails; and those of Authorize
// (ActUploadArtwork: DEMO_LIMITED in a demo workspace).
func (s *Service) Upload(ctx context.Context, p core.Principal, in UploadInput) (Asset, error) {
	if err := core.Authorize(p, core.ActUploadArtwork, ""); err != nil {
		return Asset{}, err
	}
	if err := s.countAttempt(ctx, p.WorkspaceID); err != nil {
		return Asset{}, err
	}
	f := in.Fields.orDefault()
	purpose, err := checkPurpose(in.Purpose, f.Purpose)
	if err != nil {
		return Asset{}, err
	}
	if err := checkMime(in.Mime, f.Mime); err != nil {
		return Asset{}, err
	}
	name, err := CheckFilename(in.Filename, in.Mime, f.Filename)
	if err != nil {
		return Asset{}, err
	}
	info, err := checkBody(in.Body, in.Mime, f.Body)
	if err != nil {
		return Asset{}, err
	}
	if purpose == PurposePortrait {
		if err := CheckPortrait(info, purpose, f.Body); err != nil {
			return Asset{}, err
		}
	}
	return s.store(ctx, p, newFile{
		filename: name, purpose: purpose, info: info, body: in.Body, counter: countUpload, field: f.Body,
	})
}

// checkBody bounds a file's size and inspects it.
func checkBody(body []byte, mime, field string) (Inspected, error) {
	switch {
	case len(body) == 0:
		return Inspected{}, core.Invalid(field, "is empty")
	case len(body) > MaxFileBytes:
		return Inspected{}, core.Invalid(field, "is %d bytes; a file is at most 5 MiB (%d bytes)", len(body), MaxFileBytes)
	}
	return Inspect(body, mime, field)
}

// newFile is a checked file about to be stored.
type newFile struct {
	filename  string
	purpose   Purpose
	info      Inspected
	body      []byte
	sourceURL string
	counter   counter
	field     string
}

// store records the intent (the limits, then a pending asset), writes the
// blob outside any transaction, and records the asset ready. When the
// blob store fails the intent is undone and the answer is
// SERVICE_UNAVAILABLE with retry_later: nothing was saved.
func (s *Service) store(ctx context.Context, p core.Principal, f newFile) (Asset, error) {
	if s.Blobs == nil {
		return Asset{}, core.Internal(errNoBlobStore)
	}
	var row db.ArtworkAsset
	err := s.InTx(ctx, func(q *db.Queries) error {
		if err := s.reserve(ctx, q, p.WorkspaceID, f.counter, int64(len(f.body)), f.field); err != nil {
			return err
		}
		var err error
		row, err = q.ArtworkInsert(ctx, db.ArtworkInsertParams{
			ID: core.NewID(core.PrefixAsset), WorkspaceID: p.WorkspaceID, Filename: f.filename, Mime: f.info.Mime,
			Bytes: int64(len(f.body)), Purpose: string(f.purpose), Width: int32(f.info.Width), Height: int32(f.info.Height),
			SourceUrl: f.sourceURL, CreatedBy: p.UserID, CreatedAt: s.Clock.Now(),
		})
		if err != nil {
			return core.Internal(err)
		}
		return nil
	})
	if err != nil {
		return Asset{}, core.AsCoreError(err)
	}
	if err := s.Blobs.Put(ctx, blobKey(p.WorkspaceID, row.ID), f.body, f.info.Mime); err != nil {
		s.undo(ctx, row, f.counter)
		return Asset{}, core.UnavailableNothingSaved(fmt.Errorf("artwork: store %s: %w", row.ID, err))
	}
	n, err := db.New(s.DB).ArtworkMarkReady(ctx, db.ArtworkMarkReadyParams{WorkspaceID: row.WorkspaceID, ID: row.ID})
	if err != nil {
		return Asset{}, core.Internal(err)
	}
	if n == 0 {
		return Asset{}, core.Internal(errors.New("artwork: the pending asset went away before it was ready"))
	}
	return assetFromRow(row), nil
}

// undo drops the intent of an upload whose blob could not be written and
// gives its daily count back; a failure here leaves a pending asset that
// stops counting after stalePending.
func (s *Service) undo(ctx context.Context, row db.ArtworkAsset, c counter) {
	err := s.InTx(ctx, func(q *db.Queries) error {
		if _, err := q.ArtworkDeletePending(ctx, db.ArtworkDeletePendingParams{WorkspaceID: row.WorkspaceID, ID: row.ID}); err != nil {
			return err
		}
		if c != countUpload {
			return nil
		}
		d, _ := day(row.CreatedAt)
		return q.ArtworkDayReturnUpload(ctx, db.ArtworkDayReturnUploadParams{WorkspaceID: row.WorkspaceID, Day: d})
	})
	if err != nil {
		s.Log.Warn("artwork: undo a failed upload", "asset", row.ID, "err", err)
	}
}
