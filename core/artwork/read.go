package artwork

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// MaxLibraryItems bounds the artwork library's list.
const MaxLibraryItems = 200

// Get returns a ready asset of p's workspace with its bytes. Codes:
// NOT_FOUND naming id (another workspace's, none, or not ready);
// SERVICE_UNAVAILABLE when the blob store fails; those of Authorize
// (ActRead).
func (s *Service) Get(ctx context.Context, p core.Principal, id string) (File, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return File{}, err
	}
	id = strings.TrimSpace(id)
	row, err := db.New(s.DB).ArtworkGet(ctx, db.ArtworkGetParams{WorkspaceID: p.WorkspaceID, ID: id})
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && row.State != "ready") {
		return File{}, core.FieldError(core.CodeNotFound, "id", "no artwork %s in this workspace", core.Clip(id, 60))
	}
	if err != nil {
		return File{}, core.Internal(err)
	}
	if s.Blobs == nil {
		return File{}, core.Internal(errNoBlobStore)
	}
	body, err := s.Blobs.Get(ctx, blobKey(p.WorkspaceID, row.ID))
	if err != nil {
		return File{}, core.UnavailableNothingSaved(fmt.Errorf("artwork: read %s: %w", row.ID, err))
	}
	return File{Asset: assetFromRow(row), Body: body}, nil
}

// List returns the workspace's ready assets, newest first, at most
// MaxLibraryItems: the artwork library. Codes: those of Authorize (ActRead).
func (s *Service) List(ctx context.Context, p core.Principal) ([]LibraryItem, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return nil, err
	}
	rows, err := db.New(s.DB).ArtworkListReady(ctx, db.ArtworkListReadyParams{WorkspaceID: p.WorkspaceID, MaxRows: MaxLibraryItems})
	if err != nil {
		return nil, core.Internal(err)
	}
	out := make([]LibraryItem, len(rows))
	for i, r := range rows {
		out[i] = LibraryItem{
			Asset: assetFromRow(r), Purpose: Purpose(r.Purpose), Width: int(r.Width), Height: int(r.Height),
			SourceURL: r.SourceUrl, CreatedAt: r.CreatedAt,
		}
	}
	return out, nil
}

// Use says how a named asset is used, which decides what it may be.
type Use int

// The uses of an asset.
const (
	// UseArtwork is a person's assetIds: any ready asset.
	UseArtwork Use = iota
	// UseLogo is customization.logoAssetId or a link's branding logo: a
	// ready PNG, JPEG or WebP.
	UseLogo
	// UsePortrait is a person's uploaded photo or a replaced portrait: a
	// ready image within the portrait bounds, not a logo.
	UsePortrait
)

// Named is one asset ID a request names, with the field that names it.
type Named struct {
	Field string
	ID    string
	Use   Use
}

// CheckReady refuses, with ARTWORK_UNAVAILABLE naming the first field in
// order, any named asset that is not a ready asset of the workspace fit for
// its use, reading in q (the caller's transaction or the pool).
func CheckReady(ctx context.Context, q *db.Queries, workspaceID string, named []Named) error {
	_, err := checkReady(ctx, q, workspaceID, named)
	return err
}

// checkReady is CheckReady, returning the named assets' rows by ID.
func checkReady(ctx context.Context, q *db.Queries, workspaceID string, named []Named) (map[string]db.ArtworkReadyAmongRow, error) {
	if len(named) == 0 {
		return nil, nil
	}
	ids := make([]string, len(named))
	for i, n := range named {
		ids[i] = n.ID
	}
	rows, err := q.ArtworkReadyAmong(ctx, db.ArtworkReadyAmongParams{WorkspaceID: workspaceID, Ids: ids})
	if err != nil {
		return nil, core.Internal(err)
	}
	ready := make(map[string]db.ArtworkReadyAmongRow, len(rows))
	for _, r := range rows {
		ready[r.ID] = r
	}
	for _, n := range named {
		r, ok := ready[n.ID]
		switch {
		case !ok:
			return nil, core.FieldError(core.CodeArtworkUnavailable, n.Field, "%s is not a ready artwork file of this workspace; upload it first", core.Clip(n.ID, 60))
		case n.Use == UseLogo && r.Mime == MimePDF:
			return nil, core.FieldError(core.CodeArtworkUnavailable, n.Field, "%s is a PDF; a logo is a ready PNG, JPEG or WebP", core.Clip(n.ID, 60))
		case n.Use == UsePortrait:
			info := Inspected{Mime: r.Mime, Width: int(r.Width), Height: int(r.Height)}
			if err := CheckPortrait(info, Purpose(r.Purpose), n.Field); err != nil {
				e := core.AsError(err)
				e.Code = core.CodeArtworkUnavailable
				return nil, e
			}
		}
	}
	return ready, nil
}
