package billing

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/sql/db"
)

// The sandbox pays checkouts on its own page, /sandbox/pay/<session id>:
// there a signed-in owner or admin pays (the sandbox's word that it was
// paid) or abandons (the session expires).

// SandboxCheckout is a sandbox checkout as its payment page shows it.
type SandboxCheckout struct {
	SessionID string
	Checkout  Checkout
}

// SandboxCheckout reads the sandbox checkout with sessionID in p's
// workspace. It returns the codes of Authorize (ActPay), NOT_FOUND, or
// INTERNAL_ERROR.
func (a *Service) SandboxCheckout(ctx context.Context, p core.Principal, sessionID string) (SandboxCheckout, error) {
	if err := core.Authorize(p, core.ActPay, a.BillingURL()); err != nil {
		return SandboxCheckout{}, err
	}
	var out SandboxCheckout
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		row, err := a.lockSandboxCheckout(ctx, tx, p, sessionID)
		if err != nil {
			return err
		}
		if err := a.expireIfDue(ctx, tx, row); err != nil {
			return err
		}
		row, err = db.New(tx).CheckoutGetForUpdate(ctx, db.CheckoutGetForUpdateParams{WorkspaceID: row.WorkspaceID, ID: row.ID})
		if err != nil {
			return core.Internal(err)
		}
		out = SandboxCheckout{SessionID: sessionID, Checkout: a.checkoutFromRow(row)}
		return nil
	})
	return out, core.AsCoreError(err)
}

// PaySandboxCheckout pays a sandbox checkout of p's workspace (its page's
// Pay button): an open checkout becomes paid exactly once; a closed one is
// INVALID_REQUEST_STATE. It returns the checkout.
func (a *Service) PaySandboxCheckout(ctx context.Context, p core.Principal, sessionID string) (Checkout, error) {
	return a.sandboxMove(ctx, p, sessionID, true)
}

// AbandonSandboxCheckout abandons a sandbox checkout of p's workspace (its
// page's Abandon button): the session expires unpaid, as a processor's
// would. A paid checkout is INVALID_REQUEST_STATE.
func (a *Service) AbandonSandboxCheckout(ctx context.Context, p core.Principal, sessionID string) (Checkout, error) {
	return a.sandboxMove(ctx, p, sessionID, false)
}

func (a *Service) sandboxMove(ctx context.Context, p core.Principal, sessionID string, pay bool) (Checkout, error) {
	if err := core.Authorize(p, core.ActPay, a.BillingURL()); err != nil {
		return Checkout{}, err
	}
	var out Checkout
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		row, err := a.lockSandboxCheckout(ctx, tx, p, sessionID)
		if err != nil {
			return err
		}
		if err := a.expireIfDue(ctx, tx, row); err != nil {
			return err
		}
		if row, err = db.New(tx).CheckoutGetForUpdate(ctx, db.CheckoutGetForUpdateParams{WorkspaceID: row.WorkspaceID, ID: row.ID}); err != nil {
			return core.Internal(err)
		}
		st := CheckoutState(row.State)
		switch {
		case pay && (st == CheckoutExpired || st == CheckoutCancelled):
			return core.Errorf(core.CodeInvalidRequestState, "checkout %s is %s and can no longer be paid; start a new checkout from the review page", row.ID, st)
		case !pay && (st == CheckoutPaid || st == CheckoutConsumed):
			return checkoutPaidError(row.ID)
		case pay:
			err = a.applyPaid(ctx, tx, row, ledger.SessionResult{State: ledger.SessionPaid})
		default:
			err = a.applyClosed(ctx, tx, row, CheckoutExpired)
		}
		if err != nil {
			return err
		}
		if row, err = db.New(tx).CheckoutGetForUpdate(ctx, db.CheckoutGetForUpdateParams{WorkspaceID: row.WorkspaceID, ID: row.ID}); err != nil {
			return core.Internal(err)
		}
		out = a.checkoutFromRow(row)
		return nil
	})
	return out, core.AsCoreError(err)
}

// lockSandboxCheckout locks the sandbox checkout of sessionID in p's
// workspace: NOT_FOUND otherwise.
func (a *Service) lockSandboxCheckout(ctx context.Context, tx pgx.Tx, p core.Principal, sessionID string) (db.Checkout, error) {
	row, err := db.New(tx).CheckoutGetBySessionInWorkspaceForUpdate(ctx, db.CheckoutGetBySessionInWorkspaceForUpdateParams{WorkspaceID: p.WorkspaceID, ProcessorSessionID: &sessionID})
	if core.IsNoRows(err) || (err == nil && row.Processor != ledger.SandboxProcessorName) {
		return db.Checkout{}, core.Errorf(core.CodeNotFound, "test checkout %s does not exist in this workspace", core.Clip(sessionID, 60))
	}
	if err != nil {
		return db.Checkout{}, core.Internal(err)
	}
	return row, nil
}
