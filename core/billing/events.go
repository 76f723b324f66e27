package billing

import (
	"context"
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
		fresh, err := a.recordEvent(ctx, q, ev, ev.SessionID)
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
			row, err := q.CheckoutGetByPaymentRef(ctx, ev.PaymentRef)
			if core.IsNoRows(err) {
				return nil
			}
			if err != nil {
				return core.Internal(err)
			}
			if err := q.CheckoutSetRefunded(ctx, db.CheckoutSetRefundedParams{WorkspaceID: row.WorkspaceID, ID: row.ID, RefundedCents: ev.RefundedCents}); err != nil {
				return core.Internal(err)
			}
		}
		return nil
	})
	return core.AsCoreError(err)
}

// recordEvent stores ev's ID; fresh is false for a replay.
func (a *Service) recordEvent(ctx context.Context, q *db.Queries, ev ProcessorEvent, object string) (fresh bool, err error) {
	_, err = q.ProcessorEventInsert(ctx, db.ProcessorEventInsertParams{
		ID: ev.ID, Processor: ev.Processor, Type: string(ev.Type), ObjectID: object, ReceivedAt: a.Clock.Now(),
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
	case ev.Type == EventSessionExpired:
		if _, err := db.New(a.DB).TopupExpire(ctx, ev.SessionID); err != nil {
			return core.Internal(err)
		}
	}
	_, err := a.recordEvent(ctx, db.New(a.DB), ev, ev.SessionID)
	return err
}
