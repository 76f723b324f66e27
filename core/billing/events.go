package billing

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/sql/db"
)

// ProcessorEventType is the type of a payment processor's event that
// billing applies.
type ProcessorEventType string

// The events applied; any other is recorded and ignored.
const (
	// EventSessionCompleted: a checkout session was completed (paid when
	// Paid is true).
	EventSessionCompleted ProcessorEventType = "checkout.session.completed"
	// EventSessionExpired: a checkout session expired unpaid.
	EventSessionExpired ProcessorEventType = "checkout.session.expired"
	// EventChargeRefunded: a charge was refunded, fully or partly.
	EventChargeRefunded ProcessorEventType = "charge.refunded"
)

// ProcessorEvent is a verified event of the payment processor, as its
// adapter (internal/payments' Stripe webhook) decoded it.
type ProcessorEvent struct {
	// ID is the processor's event ID; an event is applied once.
	ID        string
	Processor string
	Type      ProcessorEventType
	// SessionID is the checkout session (session events).
	SessionID string
	// ClientReference is the session's client_reference_id: a checkout or
	// top-up ID.
	ClientReference string
	// Paid is true when a completed session's payment succeeded.
	Paid bool
	// PaymentRef is the payment (Stripe's PaymentIntent).
	PaymentRef string
	// RefundedCents is a refunded charge's refunded total.
	RefundedCents int64
}

// ApplyProcessorEvent applies a verified processor event exactly once: the
// event's ID is stored in the transaction that applies it, so a replay
// changes nothing, and each move checks the checkout's state, so an
// out-of-order delivery changes nothing either (a paid checkout never
// expires; a closed one is never reopened). Top-up sessions complete or
// expire their top-up (Ledger.CompleteTopup, itself exactly once). It
// returns INTERNAL_ERROR when the event must be delivered again.
func (a *Service) ApplyProcessorEvent(ctx context.Context, ev ProcessorEvent) error {
	if strings.HasPrefix(ev.ClientReference, ledger.PrefixTopup) {
		return a.applyTopupEvent(ctx, ev)
	}
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		object, outcome := ev.SessionID, ""
		var refunded *db.Checkout // the checkout a charge.refunded names, if any
		if ev.Type == EventChargeRefunded {
			var err error
			object = ev.PaymentRef
			if refunded, outcome, err = a.refundOutcome(ctx, q, ev); err != nil {
				return err
			}
		}
		fresh, err := a.recordEvent(ctx, q, ev, object, outcome)
		if err != nil || !fresh {
			return err
		}
		switch ev.Type {
		case EventSessionCompleted, EventSessionExpired:
			row, err := q.CheckoutGetBySessionForUpdate(ctx, &ev.SessionID)
			if core.IsNoRows(err) {
				a.Log.WarnContext(ctx, "processor event for an unknown session", "event", ev.ID, "session", ev.SessionID)
				return nil
			}
			if err != nil {
				return core.Internal(err)
			}
			if ev.Type == EventSessionExpired {
				return a.applyClosed(ctx, tx, row, CheckoutExpired)
			}
			if !ev.Paid {
				return nil
			}
			return a.applyPaid(ctx, tx, row, ledger.SessionResult{State: ledger.SessionPaid, PaymentRef: ev.PaymentRef})
		case EventChargeRefunded:
			row := refunded
			if row == nil {
				if outcome != "" {
					a.Log.ErrorContext(ctx, "a top-up was refunded at the payment processor; its credit stays on the balance until staff adjust it",
						"event", ev.ID, "payment", ev.PaymentRef, "refunded_cents", ev.RefundedCents, "outcome", outcome)
				} else {
					a.Log.WarnContext(ctx, "charge.refunded for a payment that is no checkout's or top-up's", "event", ev.ID, "payment", ev.PaymentRef)
				}
				return nil
			}
			if outcome != "" { // a refund the charge cannot hold: stored for staff, nothing changed
				a.Log.ErrorContext(ctx, "a refund reported by the payment processor exceeds what its checkout paid; not recorded, staff to check",
					"event", ev.ID, "payment", ev.PaymentRef, "refunded_cents", ev.RefundedCents, "outcome", outcome)
				return nil
			}
			if err := q.CheckoutSetRefunded(ctx, db.CheckoutSetRefundedParams{WorkspaceID: row.WorkspaceID, ID: row.ID, RefundedCents: ev.RefundedCents}); err != nil {
				return core.Internal(err)
			}
		}
		return nil
	})
	return core.AsCoreError(err)
}

// refundOutcome is what a charge.refunded event ev means beyond a plain
// refund of a checkout, stored as the event's outcome for staff; "" when it
// is plain. A refund is bounded by what the charge paid: a refunded total
// below zero or over the checkout's (or top-up's) amount is a
// refund_anomaly, and changes nothing. A top-up's refund is a note naming
// the top-up: the balance is not changed, as its credit may be spent
// already, and staff decide the adjustment.
func (a *Service) refundOutcome(ctx context.Context, q *db.Queries, ev ProcessorEvent) (*db.Checkout, string, error) {
	c, err := q.CheckoutGetByPaymentRef(ctx, ev.PaymentRef)
	switch {
	case err == nil:
		if ev.RefundedCents < 0 || ev.RefundedCents > c.AmountCents {
			return &c, fmt.Sprintf("refund_anomaly: checkout %s of workspace %s paid %d cents; the processor reports %d cents refunded; not recorded, staff to check",
				c.ID, c.WorkspaceID, c.AmountCents, ev.RefundedCents), nil
		}
		return &c, "", nil
	case !core.IsNoRows(err):
		return nil, "", core.Internal(err)
	}
	t, err := q.TopupGetByPaymentRef(ctx, ev.PaymentRef)
	if core.IsNoRows(err) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", core.Internal(err)
	}
	if ev.RefundedCents < 0 || ev.RefundedCents > t.Cents {
		return nil, fmt.Sprintf("refund_anomaly: top-up %s of workspace %s (%s) paid %d cents; the processor reports %d cents refunded; balance unchanged, staff to check",
			t.ID, t.WorkspaceID, t.Mode, t.Cents, ev.RefundedCents), nil
	}
	return nil, fmt.Sprintf("topup_refunded: top-up %s of workspace %s (%s, %d cents) refunded %d cents at the processor; balance unchanged, staff to adjust",
		t.ID, t.WorkspaceID, t.Mode, t.Cents, ev.RefundedCents), nil
}

// recordEvent stores ev's ID with what applying it meant (outcome, "" when
// it is plain); fresh is false for a replay.
func (a *Service) recordEvent(ctx context.Context, q *db.Queries, ev ProcessorEvent, object, outcome string) (fresh bool, err error) {
	_, err = q.ProcessorEventInsert(ctx, db.ProcessorEventInsertParams{
		ID: ev.ID, Processor: ev.Processor, Type: string(ev.Type), ObjectID: object, Outcome: outcome, ReceivedAt: a.Clock.Now(),
	})
	if core.IsNoRows(err) {
		return false, nil
	}
	if err != nil {
		return false, core.Internal(err)
	}
	return true, nil
}

// applyTopupEvent completes or expires a top-up's session. CompleteTopup is
// exactly once by the top-up's own state, so it runs before the event is
// stored: an event stored is an event applied.
func (a *Service) applyTopupEvent(ctx context.Context, ev ProcessorEvent) error {
	switch {
	case ev.Type == EventSessionCompleted && ev.Paid:
		if err := a.Ledger.CompleteTopup(ctx, ev.SessionID); err != nil {
			switch core.ErrorCode(err) {
			case core.CodeNotFound, core.CodeInvalidRequestState:
				a.Log.ErrorContext(ctx, "top-up payment not applied", "event", ev.ID, "session", ev.SessionID, "err", err)
			default:
				return err
			}
		}
		if ev.PaymentRef != "" {
			// Recorded so that a refund of it (charge.refunded) is recognised.
			if err := db.New(a.DB).TopupSetPaymentRef(ctx, db.TopupSetPaymentRefParams{PaymentRef: ev.PaymentRef, ProcessorSessionID: ev.SessionID}); err != nil {
				return core.Internal(err)
			}
		}
	case ev.Type == EventSessionExpired:
		if err := a.Ledger.ExpireTopup(ctx, ev.SessionID); err != nil {
			return err
		}
	}
	_, err := a.recordEvent(ctx, db.New(a.DB), ev, ev.SessionID, "")
	return err
}
