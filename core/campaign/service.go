// Package campaign is Giftwell's campaigns and their rosters, notes,
// previews, repeats, checkouts and quotes, the rules a person must meet to
// be approved, and the queue people join. Deciding who is approved is
// core/approval's; the gifts approvals create are core/gift's.
package campaign

import (
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/ledger"
)

// Service is the campaign subject. Its methods are the transaction
// boundaries of the subject.
type Service struct {
	*core.Kernel
	// Catalog serves the gifts campaigns order.
	Catalog *catalog.Store
	// Ledger reads the balance that pays for playbook gifts.
	Ledger *ledger.Service
	// Gifts creates the gifts campaigns send.
	Gifts *gift.Service
}
