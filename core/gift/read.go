package gift

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/sql/db"
)

// The page sizes of list_sends.
const (
	// DefaultGiftLimit is list_sends' page size when limit is absent.
	DefaultGiftLimit = 50
	// MaxGiftLimit is the largest page of list_sends.
	MaxGiftLimit = core.MaxPageLimit
)

// GiftFilter selects a page of a workspace's gifts (list_sends). Empty
// fields match every gift.
type GiftFilter struct {
	CampaignID string
	Status     SendStatus
	// Mode is test or live; empty lists both.
	Mode core.Mode
	// ExternalID matches the gift's attribution.externalId.
	ExternalID string
	// Limit is the page size, 1-MaxGiftLimit; 0 means DefaultGiftLimit.
	Limit int
	// Cursor is the nextCursor of the previous page, or "".
	Cursor string
}

// GiftPage is one page of gifts, newest first.
type GiftPage struct {
	Items []Gift `json:"items" jsonschema:"gifts, newest first"`
	// NextCursor continues the list; null on the last page.
	NextCursor *string `json:"nextCursor" jsonschema:"pass as cursor, with the same filters, for the next page; null on the last page"`
}

// List returns a page of p's workspace's gifts, newest first, narrowed by
// f. The cursor is opaque: the last gift's creation time and ID and the
// filters it was issued for, with a checksum. It returns VALIDATION_ERROR
// naming status, mode, limit or cursor, or the codes of Authorize.
func (a *Service) List(ctx context.Context, p core.Principal, f GiftFilter) (GiftPage, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return GiftPage{}, err
	}
	if f.Status != "" && !f.Status.Valid() {
		return GiftPage{}, core.Invalid("status", "must be one of awaiting_address, ready, in_production, shipped, delivered, declined, expired, cancelled")
	}
	if f.Mode != "" && f.Mode != core.ModeTest && f.Mode != core.ModeLive {
		return GiftPage{}, core.Invalid("mode", "must be test or live")
	}
	limit := f.Limit
	switch {
	case limit == 0:
		limit = DefaultGiftLimit
	case limit < 1 || limit > MaxGiftLimit:
		return GiftPage{}, core.Invalid("limit", "must be between 1 and %d", MaxGiftLimit)
	}
	params := db.SendListParams{
		WorkspaceID: p.WorkspaceID, CampaignID: f.CampaignID, Status: string(f.Status), Mode: string(f.Mode),
		ExternalID: f.ExternalID, RowLimit: int32(limit + 1),
	}
	filters := giftCursorFilters(f)
	if f.Cursor != "" {
		c, err := decodeGiftCursor(f.Cursor)
		if err != nil {
			return GiftPage{}, err
		}
		if c.Filters != filters {
			return GiftPage{}, core.Invalid("cursor", "was issued for other filters; keep the filters the same while paging, or omit cursor to start from the beginning")
		}
		params.AfterID, params.AfterCreated = c.ID, c.CreatedAt
	}
	var rows []db.Send
	err := a.ReadTx(ctx, func(q *db.Queries) error {
		var err error
		rows, err = q.SendList(ctx, params)
		if err != nil {
			return core.Internal(err)
		}
		return nil
	})
	if err != nil {
		return GiftPage{}, err
	}
	page := GiftPage{Items: make([]Gift, 0, min(len(rows), limit))}
	for i, r := range rows {
		if i == limit {
			last := rows[limit-1]
			next := giftCursor{CreatedAt: last.CreatedAt, ID: last.ID, Filters: filters}.encode()
			page.NextCursor = &next
			break
		}
		g, err := FromRow(r)
		if err != nil {
			return GiftPage{}, err
		}
		page.Items = append(page.Items, g)
	}
	return page, nil
}

// Get returns one gift of p's workspace. It returns NOT_FOUND for a gift
// of another workspace or none, or the codes of Authorize.
func (a *Service) Get(ctx context.Context, p core.Principal, sendID string) (Gift, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return Gift{}, err
	}
	var g Gift
	err := a.ReadTx(ctx, func(q *db.Queries) error {
		r, err := q.SendGet(ctx, db.SendGetParams{WorkspaceID: p.WorkspaceID, ID: sendID})
		if core.IsNoRows(err) {
			return core.FieldError(core.CodeNotFound, "id", "no gift %s in this workspace", sendID)
		}
		if err != nil {
			return core.Internal(err)
		}
		g, err = FromRow(r)
		return err
	})
	return g, err
}

// giftCursor is the decoded form of an opaque list_sends cursor: the last
// gift of the page and a digest of the filters it was issued for.
type giftCursor struct {
	CreatedAt time.Time `json:"t"`
	ID        string    `json:"i"`
	Filters   string    `json:"f"`
}

// giftCursorFilters is a short digest of f's filters.
func giftCursorFilters(f GiftFilter) string {
	raw, _ := json.Marshal([]string{f.CampaignID, string(f.Status), string(f.Mode), f.ExternalID}) // cannot fail: strings
	sum := sha256.Sum256(raw)
	return base64.RawURLEncoding.EncodeToString(sum[:8])
}

func (c giftCursor) encode() string { return core.SealCursor(c, "", catalog.CursorCheckLen) }

func decodeGiftCursor(s string) (giftCursor, error) {
	var c giftCursor
	if !core.OpenCursor(s, "", catalog.CursorCheckLen, &c) || c.ID == "" {
		return giftCursor{}, core.Invalid("cursor", "is not a cursor from list_sends; pass nextCursor unchanged, or omit cursor to start from the beginning")
	}
	return c, nil
}
