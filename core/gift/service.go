// Package gift is Giftwell's gifts (sends): the record approval creates and
// charges, its forward-only statuses and order states, refunds of a gift to
// the balance, the gift events, its final price, its first gift link, the
// portrait it starts, the test-mode fulfilment simulator, and the reads and
// CSV export of gifts. What creates gifts (approvals, checkouts, quotes)
// sits above it and calls Create in its own transaction.
package gift

import (
	"context"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/ledger"
)

// Service is the gift subject. Its methods are the transaction boundaries
// of the subject; the ones ending in Tx join the caller's transaction.
type Service struct {
	*core.Kernel
	// Catalog serves the products gifts are of.
	Catalog *catalog.Store
	// Ledger pays for balance-funded gifts and credits their refunds.
	Ledger *ledger.Service
	// TestFulfilment turns the test-mode fulfilment simulator on
	// (simulator.go): giftwell.New sets it; serve clears it for
	// --test-fulfilment=off. Off, no step is scheduled and a queued step
	// does nothing.
	TestFulfilment bool
}

// storedProduct is the catalog's product id, or nil when the catalog no
// longer has it.
func (a *Service) storedProduct(ctx context.Context, id string) (*catalog.Product, error) {
	return a.Catalog.Lookup(ctx, id)
}
