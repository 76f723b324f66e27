package catalog

import (
	"context"

	"github.com/giftwell/giftwell/core"
)

// BrowseDetail is how much of each product browse_gifts returns.
type BrowseDetail string

// The browse details.
const (
	// BrowseCompact returns CompactProduct fields only (the default).
	BrowseCompact BrowseDetail = "compact"
	// BrowseFull returns every field of each product.
	BrowseFull BrowseDetail = "full"
)

// BrowseParams are browse_gifts' inputs.
type BrowseParams struct {
	// IncludeRetired lists retired gifts too (they are never chosen for a new campaign).
	IncludeRetired bool
	// Detail is compact (default when empty) or full.
	Detail BrowseDetail
	// Limit is the page size, 1-MaxPageLimit; absent means DefaultBrowseLimit.
	Limit *int
	// Cursor is a nextCursor from the previous page, or empty for the first.
	Cursor string
}

// BrowseResult is one page of the catalog.
type BrowseResult struct {
	Items []CatalogItem `json:"items" jsonschema:"gifts in catalog order: compact fields, plus every other field with detail full"`
	// NextCursor continues the listing; null on the last page.
	NextCursor *string `json:"nextCursor" jsonschema:"pass as cursor for the next page, with the same includeRetired; null on the last page"`
}

// browseCursor is the decoded form of an opaque browse cursor: the catalog
// version and the includeRetired it belongs to, and the next offset.
type browseCursor struct {
	Version        int64 `json:"v"`
	Offset         int   `json:"o"`
	IncludeRetired bool  `json:"r"`
}

// CursorCheckLen is how many bytes of SHA-256 guard a cursor against edits.
const CursorCheckLen = 4

func (c browseCursor) encode() string { return core.SealCursor(c, "", CursorCheckLen) }

func decodeBrowseCursor(s string) (browseCursor, error) {
	var c browseCursor
	if !core.OpenCursor(s, "", CursorCheckLen, &c) || c.Offset < 1 {
		return browseCursor{}, core.Invalid("cursor", "is not a cursor from browse_gifts; pass nextCursor unchanged, or omit cursor to start from the beginning")
	}
	return c, nil
}

// Browse returns one page of the catalog in catalog order; see BrowseCatalog.
func (s *Store) Browse(ctx context.Context, p BrowseParams) (BrowseResult, error) {
	if err := p.validate(); err != nil {
		return BrowseResult{}, err
	}
	snap, err := s.snapshot(ctx)
	if err != nil {
		return BrowseResult{}, err
	}
	return BrowseCatalog(snap.products, snap.version, p)
}

func (p BrowseParams) validate() error {
	if p.Detail != "" && p.Detail != BrowseCompact && p.Detail != BrowseFull {
		return core.Invalid("detail", "must be compact or full")
	}
	if l := p.Limit; l != nil && (*l < 1 || *l > core.MaxPageLimit) {
		return core.Invalid("limit", "must be between 1 and %d", core.MaxPageLimit)
	}
	return nil
}

// BrowseCatalog pages through products (catalog version version) in order,
// leaving out retired ones unless IncludeRetired. Unlike search it applies
// no other selection rule: unavailable and unpriced gifts are listed with
// their flags. The cursor is opaque: base64url of the catalog version, the
// includeRetired it was issued for and the next offset, with a checksum.
// Returns VALIDATION_ERROR naming limit, detail or cursor (an edited or
// foreign cursor, or one issued for another includeRetired), and
// CURSOR_STALE naming cursor when the catalog changed since the cursor was
// issued (start again without a cursor).
func BrowseCatalog(products []Product, version int64, p BrowseParams) (BrowseResult, error) {
	if err := p.validate(); err != nil {
		return BrowseResult{}, err
	}
	limit := core.DefaultBrowseLimit
	if p.Limit != nil {
		limit = *p.Limit
	}
	offset := 0
	if p.Cursor != "" {
		c, err := decodeBrowseCursor(p.Cursor)
		if err != nil {
			return BrowseResult{}, err
		}
		if c.IncludeRetired != p.IncludeRetired {
			return BrowseResult{}, core.Invalid("cursor", "was issued with includeRetired %v; keep includeRetired the same while paging", c.IncludeRetired)
		}
		if c.Version != version {
			return BrowseResult{}, &core.Error{Code: core.CodeCursorStale, Fields: []string{"cursor"},
				Message: "cursor: the catalog changed since this cursor was issued; start again without a cursor"}
		}
		offset = c.Offset
	}
	var listed []*Product
	for i := range products {
		if p.IncludeRetired || !products[i].Retired {
			listed = append(listed, &products[i])
		}
	}
	if offset > 0 && offset >= len(listed) {
		return BrowseResult{}, core.Invalid("cursor", "points past the end of the catalog; omit cursor to start from the beginning")
	}
	end := min(offset+limit, len(listed))
	res := BrowseResult{Items: make([]CatalogItem, 0, end-offset)}
	for _, g := range listed[offset:end] {
		item := CatalogItem{CompactProduct: g.Compact()}
		if p.Detail == BrowseFull {
			item.ProductDetails = g.Details()
		}
		res.Items = append(res.Items, item)
	}
	if end < len(listed) {
		next := browseCursor{Version: version, Offset: end, IncludeRetired: p.IncludeRetired}.encode()
		res.NextCursor = &next
	}
	return res, nil
}
