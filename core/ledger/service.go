// Package ledger is Giftwell's money held for a workspace: balances, the append-only ledger and top-ups.
package ledger

import (
	"github.com/giftwell/giftwell/core"
)

// Service is the ledger subject: money held for a workspace: balances, the append-only ledger and top-ups. Its methods are
// the transaction boundaries of the subject.
type Service struct {
	*core.Kernel
	// Payments opens payment sessions for top-ups (the sandbox or Stripe).
	Payments PaymentProcessor
}
