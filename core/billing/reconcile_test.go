package billing_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/billing"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/internal/apptest"
)

// reportingProcessor opens sessions and reports every one in state.
type reportingProcessor struct {
	state     atomic.Value // ledger.SessionState
	retrieved atomic.Int32
}

var _ ledger.PaymentProcessor = (*reportingProcessor)(nil)

func (*reportingProcessor) Name() string { return "reporting" }

func (*reportingProcessor) CreateTopupSession(_ context.Context, req ledger.TopupRequest) (ledger.ProcessorSession, error) {
	return ledger.ProcessorSession{ID: "rp_" + req.TopupID, URL: "https://pay.example/" + req.TopupID}, nil
}

func (*reportingProcessor) CreateCheckoutSession(_ context.Context, req ledger.CheckoutRequest) (ledger.ProcessorSession, error) {
	return ledger.ProcessorSession{ID: "rp_" + req.CheckoutID, URL: "https://pay.example/" + req.CheckoutID}, nil
}

func (p *reportingProcessor) RetrieveSession(context.Context, string) (ledger.SessionResult, error) {
	p.retrieved.Add(1)
	return ledger.SessionResult{State: p.state.Load().(ledger.SessionState), PaymentRef: "pi_reported", InvoiceURL: "https://pay.example/invoice", InvoicePDF: "https://pay.example/invoice.pdf"}, nil
}

func (p *reportingProcessor) ExpireSession(ctx context.Context, id string) (ledger.SessionResult, error) {
	res, err := p.RetrieveSession(ctx, id)
	if res.State == ledger.SessionOpen {
		res.State = ledger.SessionExpired
	}
	return res, err
}

func (*reportingProcessor) Refund(context.Context, ledger.RefundRequest) (ledger.RefundResult, error) {
	return ledger.RefundResult{ID: "re_1", Succeeded: true}, nil
}

// Reconcile applies the processor's word: open changes nothing, paid pays
// once (with the processor's invoice), and a top-up reconciled as paid is
// credited once; cancel of a checkout the processor reports paid is refused
// and records the payment.
func TestReconcileAppliesTheProcessorsWord(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 2)
	app := f.env.App
	proc := &reportingProcessor{}
	proc.state.Store(ledger.SessionOpen)
	app.Ledger.Payments = proc

	c := f.checkout(t, "reconcile-key-1")
	require.Equal(t, "https://pay.example/"+c.ID, c.URL)
	r, err := app.Billing.ReconcileCampaignCheckout(ctx, f.owner, c.ID)
	require.NoError(t, err)
	require.Equal(t, billing.CheckoutOpen, r.State)
	proc.state.Store(ledger.SessionPaid)
	for range 2 {
		r, err = app.Billing.ReconcileCampaignCheckout(ctx, f.owner, c.ID)
		require.NoError(t, err)
		require.Equal(t, billing.CheckoutPaid, r.State)
		require.Equal(t, "https://pay.example/invoice", r.InvoiceURL)
	}
	key, err := app.Connect.Authenticate(ctx, f.env.OwnerKey)
	require.NoError(t, err)
	_, err = app.Billing.ReconcileCampaignCheckout(ctx, key, c.ID)
	require.NoError(t, err, "an owner's key may reconcile")

	// A second campaign: cancelled while the processor says paid.
	b2 := f.env.NewBatch(t, f.owner, 1)
	c2, err := app.Billing.CreateCampaignCheckout(ctx, f.owner, b2.ID, billing.CheckoutParams{ExpectedPolicyVersion: b2.PolicyVersion, IdempotencyKey: "reconcile-key-2"})
	require.NoError(t, err)
	_, err = app.Billing.CancelCampaignCheckout(ctx, f.owner, c2.ID)
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	list, err := app.Billing.ListInvoices(ctx, f.owner, billing.InvoiceFilter{CampaignID: b2.ID, Limit: 1})
	require.NoError(t, err)
	require.Equal(t, billing.CheckoutPaid, list[0].State)

	// A top-up comes back: the processor's word credits it once.
	ts, err := app.Ledger.CreateBalanceTopup(ctx, f.owner, ledger.TopupParams{Cents: 5_000, IdempotencyKey: "reconcile-topup-1"})
	require.NoError(t, err)
	for range 3 {
		st, err := app.Billing.ReconcileTopup(ctx, f.owner, ts.SessionID)
		require.NoError(t, err)
		require.Equal(t, ledger.TopupCompleted, st)
	}
	bal, err := app.Approvals.Balance(ctx, f.owner)
	require.NoError(t, err)
	require.Equal(t, int64(5_000), bal.Cents)
	f.env.RequireLedgerConsistent(t, f.owner)
	_, err = app.Billing.ReconcileTopup(ctx, f.owner, "rp_nope")
	apptest.RequireCode(t, err, core.CodeNotFound)
}
