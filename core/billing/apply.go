package billing

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/sql/db"
)

// The processor's word moves a checkout: paid (a webhook, a reconcile, or
// the sandbox page) or expired. Each move is applied under the checkout's
// row lock and changes nothing when it comes again or too late.

// applyPaid records that the checkout locked as row was paid, in tx: an
// open (or creating) checkout becomes paid and its campaign turns on; a
// paid or consumed one changes nothing; an expired or cancelled one keeps
// its state and records the payment for staff (late_payment_ref), because
// its campaign may have changed since.
func (a *Service) applyPaid(ctx context.Context, tx pgx.Tx, row db.Checkout, res ledger.SessionResult) error {
	q := db.New(tx)
	switch CheckoutState(row.State) {
	case CheckoutPaid, CheckoutConsumed:
		if res.InvoiceURL != "" {
			if err := q.CheckoutSetInvoice(ctx, db.CheckoutSetInvoiceParams{WorkspaceID: row.WorkspaceID, ID: row.ID, InvoiceUrl: res.InvoiceURL, InvoicePdf: res.InvoicePDF}); err != nil {
				return core.Internal(err)
			}
		}
		return nil
	case CheckoutExpired, CheckoutCancelled:
		a.Log.ErrorContext(ctx, "payment reported for a closed checkout: recorded for staff to refund", "checkout", row.ID, "state", row.State, "payment", res.PaymentRef)
		if err := q.CheckoutSetLatePayment(ctx, db.CheckoutSetLatePaymentParams{WorkspaceID: row.WorkspaceID, ID: row.ID, LatePaymentRef: paymentRefOr(res.PaymentRef, row)}); err != nil {
			return core.Internal(err)
		}
		return nil
	}
	now := a.Clock.Now()
	if _, err := q.CheckoutMarkPaid(ctx, db.CheckoutMarkPaidParams{
		WorkspaceID: row.WorkspaceID, ID: row.ID, PaidAt: &now, PaymentRef: paymentRefOr(res.PaymentRef, row), InvoiceUrl: res.InvoiceURL, InvoicePdf: res.InvoicePDF,
	}); err != nil {
		return core.Internal(err)
	}
	// The processor confirmed it; the person who started it paid.
	payer := core.Principal{WorkspaceID: row.WorkspaceID, UserID: row.CreatedBy, Via: core.ViaSession}
	if err := a.RecordActivity(ctx, tx, payer, core.ActivityRecord{
		Kind: core.ActivityCheckoutPaid, Mode: core.Mode(row.Mode), CampaignID: row.CampaignID, AmountCents: row.AmountCents,
		Subject: fmt.Sprintf("%d gifts", row.RecipientCount),
	}); err != nil {
		return err
	}
	return a.Campaigns.ActivatePaid(ctx, tx, row.CampaignID)
}

// paymentRefOr is ref, or a reference naming the checkout's session when
// the processor gave none (the sandbox).
func paymentRefOr(ref string, row db.Checkout) string {
	if ref != "" {
		return ref
	}
	if row.ProcessorSessionID != nil {
		return "pay_" + *row.ProcessorSessionID
	}
	return "pay_" + row.ID
}

// applyClosed closes the unpaid checkout locked as row with state (expired
// or cancelled), in tx; any other checkout changes nothing.
func (a *Service) applyClosed(ctx context.Context, tx pgx.Tx, row db.Checkout, state CheckoutState) error {
	now := a.Clock.Now()
	if _, err := db.New(tx).CheckoutClose(ctx, db.CheckoutCloseParams{WorkspaceID: row.WorkspaceID, ID: row.ID, State: string(state), ClosedAt: &now}); err != nil {
		return core.Internal(err)
	}
	return nil
}

// getCheckout reads checkout id of workspace workspaceID: NOT_FOUND when
// it is not the workspace's.
func getCheckout(ctx context.Context, q *db.Queries, workspaceID, id string) (db.Checkout, error) {
	row, err := q.CheckoutGet(ctx, db.CheckoutGetParams{WorkspaceID: workspaceID, ID: id})
	return row, checkoutFound(id, err)
}

// checkoutFound is a checkout read's error: NOT_FOUND naming checkoutId
// for no row, INTERNAL_ERROR for any other failure.
func checkoutFound(id string, err error) error {
	switch {
	case err == nil:
		return nil
	case core.IsNoRows(err):
		return core.FieldError(core.CodeNotFound, "checkoutId", "no checkout %s in this workspace; list_invoices lists them", core.Clip(id, 60))
	}
	return core.Internal(err)
}

// lockCheckout locks checkout id of workspace workspaceID in tx: NOT_FOUND
// when it is not the workspace's.
func lockCheckout(ctx context.Context, q *db.Queries, workspaceID, id string) (db.Checkout, error) {
	row, err := q.CheckoutGetForUpdate(ctx, db.CheckoutGetForUpdateParams{WorkspaceID: workspaceID, ID: id})
	return row, checkoutFound(id, err)
}

// withCheckout runs f on checkout id of workspace workspaceID, locked, in
// one transaction, and returns the checkout as f left it.
func (a *Service) withCheckout(ctx context.Context, workspaceID, id string, f func(tx pgx.Tx, row db.Checkout) error) (Checkout, error) {
	var out db.Checkout
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		row, err := lockCheckout(ctx, q, workspaceID, id)
		if err != nil {
			return err
		}
		if f != nil {
			if err := f(tx, row); err != nil {
				return err
			}
		}
		out, err = q.CheckoutGetForUpdate(ctx, db.CheckoutGetForUpdateParams{WorkspaceID: row.WorkspaceID, ID: row.ID})
		if err != nil {
			return core.Internal(err)
		}
		return nil
	})
	if err != nil {
		return Checkout{}, core.AsCoreError(err)
	}
	return a.checkoutFromRow(out), nil
}

// expireIfDue closes the unpaid checkout row as expired when its time is up
// by Giftwell's clock.
func (a *Service) expireIfDue(ctx context.Context, tx pgx.Tx, row db.Checkout) error {
	if campaign.CheckoutLapsed(row.State, row.ExpiresAt, a.Clock.Now()) {
		return a.applyClosed(ctx, tx, row, CheckoutExpired)
	}
	return nil
}
