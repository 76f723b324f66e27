package billing

import (
	"context"
	"fmt"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/sql/db"
)

var _ giftlink.CardRefunder = (*Service)(nil)

// RefundCard implements giftlink.CardRefunder: it refunds one card-paid
// gift, whose refund staff approved, to the card that paid its checkout.
// It reads the checkout, then calls the processor with no transaction
// held; the refund request's ID is the processor's idempotency key, so an
// approval repeated after a failure never refunds twice, and a repeated
// call reads the same refund's status again. The status is the
// processor's: succeeded, pending (not finished) or failed (with its
// reason). The checkout's refunded total follows from the processor's
// charge.refunded event.
func (a *Service) RefundCard(ctx context.Context, r giftlink.CardRefund) (giftlink.CardRefundResult, error) {
	row, err := db.New(a.DB).CheckoutForSend(ctx, db.CheckoutForSendParams{SendID: &r.SendID, WorkspaceID: r.WorkspaceID})
	if core.IsNoRows(err) {
		return giftlink.CardRefundResult{}, core.FieldError(core.CodeInvalidRequestState, "sendId", "gift %s was not paid by a checkout", r.SendID)
	}
	if err != nil {
		return giftlink.CardRefundResult{}, core.Internal(err)
	}
	proc := a.Ledger.Payments
	switch {
	case proc == nil:
		return giftlink.CardRefundResult{}, core.Internal(errNoProcessor)
	case row.PaymentRef == "":
		return giftlink.CardRefundResult{}, core.Internal(fmt.Errorf("billing: checkout %s is paid but has no payment reference", row.ID))
	case row.Processor != proc.Name():
		return giftlink.CardRefundResult{}, core.Errorf(core.CodeUnavailableRead,
			"checkout %s was paid through %s, which this service is not configured for; try again once it is", row.ID, row.Processor)
	}
	res, err := proc.Refund(ctx, ledger.RefundRequest{
		RefundID: r.RefundID, PaymentRef: row.PaymentRef, Cents: r.AmountCents, Mode: core.Mode(row.Mode),
	})
	if err != nil {
		return giftlink.CardRefundResult{}, err
	}
	out := giftlink.CardRefundResult{ProcessorID: res.ID, Status: giftlink.CardRefundPending}
	switch {
	case res.Succeeded:
		out.Status = giftlink.CardRefundSucceeded
	case res.Failed:
		out.Status, out.Message = giftlink.CardRefundFailed, res.FailureReason
	}
	return out, nil
}
