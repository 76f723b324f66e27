// Package campaign is Giftwell's campaigns: their records and policy
// versions, rosters and the people on them (matching, notes, photos,
// imports), previews, the repeats a roster holds, the checkout a campaign
// shows, the rules a person must meet to be approved (checks, reasons,
// states, spend limits) and the queue people join. Deciding who is
// approved is core/approval's; the gifts decisions create are core/gift's.
package campaign

import (
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
)

// Service is the campaign subject. Its methods are the transaction
// boundaries of the subject.
type Service struct {
	*core.Kernel
	// Catalog serves the gifts campaigns order.
	Catalog *catalog.Store
}
