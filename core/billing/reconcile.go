package billing

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/sql/db"
)

// ReconcileCampaignCheckout re-reads checkout id at the payment processor
// (no transaction open meanwhile) and applies what it says: paid, expired,
// or still open (expired by Giftwell's clock when its time is up). The
// sandbox keeps no state of its own, so for it only the clock applies. It
// returns the checkout.
//
// It returns the codes of Authorize (ActReadBilling: an owner or admin),
// NOT_FOUND, or INTERNAL_ERROR (also when the processor cannot be reached).
func (a *Service) ReconcileCampaignCheckout(ctx context.Context, p core.Principal, id string) (Checkout, error) {
	if err := core.Authorize(p, core.ActReadBilling, a.BillingURL()); err != nil {
		return Checkout{}, err
	}
	row, err := getCheckout(ctx, db.New(a.DB), p.WorkspaceID, id)
	if err != nil {
		return Checkout{}, err
	}
	res := ledger.SessionResult{State: ledger.SessionLocal}
	if proc := a.processorOf(row.Processor); proc != nil && row.ProcessorSessionID != nil {
		res, err = proc.RetrieveSession(ctx, *row.ProcessorSessionID)
		if err != nil {
			return Checkout{}, core.Internal(fmt.Errorf("reconcile checkout %s: %w", row.ID, err))
		}
	}
	return a.withCheckout(ctx, p.WorkspaceID, id, func(tx pgx.Tx, row db.Checkout) error {
		return a.applySession(ctx, tx, row, res)
	})
}

// applySession applies the processor's view res of checkout row in tx.
func (a *Service) applySession(ctx context.Context, tx pgx.Tx, row db.Checkout, res ledger.SessionResult) error {
	switch res.State {
	case ledger.SessionPaid:
		return a.applyPaid(ctx, tx, row, res)
	case ledger.SessionExpired:
		return a.applyClosed(ctx, tx, row, CheckoutExpired)
	}
	return a.expireIfDue(ctx, tx, row)
}

// CancelCampaignCheckout cancels an unpaid checkout: the processor closes
// its session first (no transaction open), then the checkout is cancelled
// and the campaign's edits unlock. A checkout the processor reports paid
// meanwhile is recorded paid and refused; a cancelled or expired one is
// returned as it is.
//
// It returns the codes of Authorize (ActPay: a signed-in owner or admin),
// NOT_FOUND, INVALID_REQUEST_STATE (paid or consumed), or INTERNAL_ERROR.
func (a *Service) CancelCampaignCheckout(ctx context.Context, p core.Principal, id string) (Checkout, error) {
	if err := core.Authorize(p, core.ActPay, a.BillingURL()); err != nil {
		return Checkout{}, err
	}
	row, err := getCheckout(ctx, db.New(a.DB), p.WorkspaceID, id)
	if err != nil {
		return Checkout{}, err
	}
	switch CheckoutState(row.State) {
	case CheckoutPaid, CheckoutConsumed:
		return Checkout{}, checkoutPaidError(row.ID)
	case CheckoutExpired, CheckoutCancelled:
		return a.checkoutFromRow(row), nil
	}
	res := ledger.SessionResult{State: ledger.SessionLocal}
	if proc := a.processorOf(row.Processor); proc != nil && row.ProcessorSessionID != nil {
		res, err = proc.ExpireSession(ctx, *row.ProcessorSessionID)
		if err != nil {
			return Checkout{}, core.Internal(fmt.Errorf("cancel checkout %s: %w", row.ID, err))
		}
	}
	out, err := a.withCheckout(ctx, p.WorkspaceID, id, func(tx pgx.Tx, row db.Checkout) error {
		if res.State == ledger.SessionPaid {
			return a.applyPaid(ctx, tx, row, res)
		}
		return a.applyClosed(ctx, tx, row, CheckoutCancelled)
	})
	if err != nil {
		return Checkout{}, err
	}
	if out.State == CheckoutPaid || out.State == CheckoutConsumed {
		return Checkout{}, checkoutPaidError(out.ID)
	}
	return out, nil
}

// checkoutPaidError is INVALID_REQUEST_STATE for cancelling a paid checkout.
func checkoutPaidError(id string) *core.Error {
	return core.Errorf(core.CodeInvalidRequestState, "checkout %s is paid and cannot be cancelled; launch its gifts, or request refunds for them", id)
}
