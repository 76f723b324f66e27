package giftlink

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/giftwell/giftwell/core"
)

// Bounds of get_gift_link_records.
const (
	// DefaultRecordLimit is the page size when limit is absent.
	DefaultRecordLimit = 50
	// MaxRecordLimit is the largest page.
	MaxRecordLimit = core.MaxPageLimit
	// MaxRecordIDs is the most IDs recipientIds or giftIds may list.
	MaxRecordIDs = 500
	// MaxRecordIDLength is the longest ID accepted in those lists.
	MaxRecordIDLength = 100
	// MaxRecordSearch is the longest search, in characters.
	MaxRecordSearch = 200
)

// RecordsQuery selects a page of a campaign's gift-link records. Empty
// fields do not narrow; filters combine with AND.
type RecordsQuery struct {
	// RecipientIDs keeps these roster people (up to MaxRecordIDs).
	RecipientIDs []string
	// GiftIDs keeps the records whose gift (send ID) is one of these.
	GiftIDs []string
	// Search is a case-insensitive substring of the name, email, company,
	// external ID, source system or profile URL.
	Search string
	// Availability keeps ready or unavailable records.
	Availability Availability
	// Limit is the page size, 1-MaxRecordLimit; 0 means DefaultRecordLimit.
	Limit int
	// Cursor is the nextCursor of the previous page, or "".
	Cursor string
}

// Check returns the VALIDATION_ERROR naming the first field of q that is
// out of bounds (limit, recipientIds[i], giftIds[i], search, availability,
// cursor's length), or nil. A cursor's content is checked against its
// campaign when it is used.
func (q RecordsQuery) Check() error {
	_, err := q.selection()
	return err
}

// selection is a checked query: the filters normalised (IDs sorted and
// unique, the search trimmed and made an ILIKE pattern) and the page size.
type selection struct {
	recipientIDs, giftIDs []string
	search, pattern       string
	availability          Availability
	limit                 int
}

// selection checks q and normalises its filters.
func (q RecordsQuery) selection() (selection, error) {
	sel := selection{limit: q.Limit, availability: q.Availability, search: strings.TrimSpace(q.Search)}
	switch {
	case sel.limit == 0:
		sel.limit = DefaultRecordLimit
	case sel.limit < 1 || sel.limit > MaxRecordLimit:
		return selection{}, core.Invalid("limit", "must be between 1 and %d", MaxRecordLimit)
	}
	var err error
	if sel.recipientIDs, err = checkIDs("recipientIds", "recipient_", "a roster person's recipient ID (recipient_...)", q.RecipientIDs); err != nil {
		return selection{}, err
	}
	if sel.giftIDs, err = checkIDs("giftIds", "send_", "a gift's send ID (send_...)", q.GiftIDs); err != nil {
		return selection{}, err
	}
	if utf8.RuneCountInString(sel.search) > MaxRecordSearch {
		return selection{}, core.Invalid("search", "must be at most %d characters", MaxRecordSearch)
	}
	if !utf8.ValidString(sel.search) || strings.ContainsFunc(sel.search, unicode.IsControl) {
		return selection{}, core.Invalid("search", "must be text without control characters")
	}
	if sel.search != "" {
		sel.pattern = "%" + escapeLike(sel.search) + "%"
	}
	if sel.availability != "" && sel.availability != Ready && sel.availability != Unavailable {
		return selection{}, core.Invalid("availability", "must be ready or unavailable")
	}
	if len(q.Cursor) > maxRecordCursor {
		return selection{}, core.Invalid("cursor", "is not a cursor from get_gift_link_records; pass nextCursor unchanged, or omit cursor to start from the beginning")
	}
	return sel, nil
}

// checkIDs checks a list of IDs of one prefix and returns it sorted and
// without repeats. The list may be absent, not empty.
func checkIDs(field, prefix, what string, ids []string) ([]string, error) {
	if ids == nil {
		return []string{}, nil
	}
	if len(ids) == 0 || len(ids) > MaxRecordIDs {
		return nil, core.Invalid(field, "must list 1 to %d IDs", MaxRecordIDs)
	}
	for i, id := range ids {
		if !wellFormedID(id, prefix) {
			return nil, core.Invalid(fmt.Sprintf("%s[%d]", field, i), "must be %s", what)
		}
	}
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out), nil
}

// wellFormedID reports whether id is prefix followed by 1 to
// MaxRecordIDLength letters, digits, _ or - in all.
func wellFormedID(id, prefix string) bool {
	rest, ok := strings.CutPrefix(id, prefix)
	if !ok || rest == "" || len(id) > MaxRecordIDLength {
		return false
	}
	for _, c := range []byte(rest) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// escapeLike escapes s for ILIKE with the escape character \.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// digest is a short digest of the selection's filters, which a cursor
// keeps: following a cursor with other filters is refused.
func (sel selection) digest() string {
	raw, _ := json.Marshal([]any{sel.recipientIDs, sel.giftIDs, sel.search, sel.availability}) // cannot fail: strings
	sum := sha256.Sum256(raw)
	return base64.RawURLEncoding.EncodeToString(sum[:8])
}
