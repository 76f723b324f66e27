package ledger

import (
	"time"

	"github.com/giftwell/giftwell/core"
)

// CheckoutRequest is what a PaymentProcessor needs to open a campaign
// checkout's card payment session.
type CheckoutRequest struct {
	// CheckoutID is Giftwell's checkout ID: the session's client reference
	// and, with a prefix, the processor's idempotency key.
	CheckoutID  string
	WorkspaceID string
	CampaignID  string
	Mode        core.Mode
	// UnitCents is the price per gift; Quantity the paid positions.
	UnitCents int64
	Quantity  int
	// Description names what is bought ("Gifts: <campaign name>").
	Description string
	// ExpiresAt is when an unpaid session closes.
	ExpiresAt time.Time
	// SuccessURL and CancelURL are where the payer goes afterwards; neither
	// proves anything.
	SuccessURL, CancelURL string
}

// SessionState is a payment session's state at the processor.
type SessionState string

// The session states.
const (
	// SessionOpen can still be paid.
	SessionOpen SessionState = "open"
	// SessionPaid was paid.
	SessionPaid SessionState = "paid"
	// SessionExpired can no longer be paid.
	SessionExpired SessionState = "expired"
	// SessionLocal is the sandbox's answer: it keeps no state of its own,
	// so what Giftwell recorded stands.
	SessionLocal SessionState = "local"
)

// SessionResult is a session as the processor reports it.
type SessionResult struct {
	State SessionState
	// PaymentRef is the processor's payment (Stripe's PaymentIntent ID),
	// once paid.
	PaymentRef string
	// InvoiceURL and InvoicePDF are the processor's invoice, when it has one.
	InvoiceURL, InvoicePDF string
}

// LiveReporter is a PaymentProcessor that says whether it moves real money
// (Stripe with a live key) or only test payments (Stripe with a test key).
// get_billing_config reports mode live only for a processor that says so.
type LiveReporter interface {
	Live() bool
}

// RefundRequest gives cents of a payment back.
type RefundRequest struct {
	// RefundID is Giftwell's refund ID, the processor's idempotency key.
	RefundID   string
	PaymentRef string
	Cents      int64
	Mode       core.Mode
}

// RefundResult is the processor's refund as it stands now.
type RefundResult struct {
	// ID is the processor's refund ID.
	ID string
	// Succeeded is true once the money is back; false while the processor
	// has not finished it (Stripe's pending or requires_action) or gave up.
	Succeeded bool
	// Failed is true when the processor gave up on the refund (Stripe's
	// failed or canceled); FailureReason says why, in its words.
	Failed        bool
	FailureReason string
}
