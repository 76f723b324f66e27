// Package campaign is Giftwell's campaigns and their rosters, previews, repeats, the approval queue, auto-approve and the gifts approvals create.
package campaign

import (
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/ledger"
)

// Service is the campaign subject: campaigns and their rosters, previews, repeats, the approval queue, auto-approve and the gifts approvals create. Its methods are
// the transaction boundaries of the subject.
type Service struct {
	*core.Kernel
	// Catalog serves the gifts campaigns order.
	Catalog *catalog.Store
	// Ledger pays for gifts from the balance.
	Ledger *ledger.Service
	// TestFulfilment turns the test-mode fulfilment simulator on
	// (gift_simulator.go): giftwell.New sets it; serve clears it for
	// --test-fulfilment=off. Off, no step is scheduled and a queued step
	// does nothing.
	TestFulfilment bool
}
