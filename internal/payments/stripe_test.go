package payments_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/billing"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/internal/payments"
	"github.com/giftwell/giftwell/internal/stripemock"
	"github.com/giftwell/giftwell/sql/db"
)

const webhookSecret = "whsec_giftwell_test"

func TestStripeProcessorAgainstStripeMock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := payments.NewStripeProcessor(payments.StripeConfig{SecretKey: "sk_test_123", APIBase: stripemock.Start(t)})
	require.Equal(t, payments.StripeProcessorName, p.Name())

	s, err := p.CreateCheckoutSession(ctx, ledger.CheckoutRequest{
		CheckoutID: "chk_1", WorkspaceID: "ws_1", CampaignID: "cmp_1", Mode: core.ModeTest, UnitCents: 5_000, Quantity: 3,
		Description: "Gifts: Thanks", ExpiresAt: time.Now().Add(time.Hour), SuccessURL: "https://gifts.example.com/ok", CancelURL: "https://gifts.example.com/no",
	})
	require.NoError(t, err)
	require.Regexp(t, `^cs_`, s.ID)
	require.Regexp(t, `^https://checkout\.stripe\.com/`, s.URL)
	top, err := p.CreateTopupSession(ctx, ledger.TopupRequest{TopupID: "top_1", WorkspaceID: "ws_1", Mode: core.ModeTest, Cents: 2_500, ReturnURL: "https://gifts.example.com/balance"})
	require.NoError(t, err)
	require.Regexp(t, `^cs_`, top.ID)

	got, err := p.RetrieveSession(ctx, s.ID)
	require.NoError(t, err)
	require.Contains(t, []ledger.SessionState{ledger.SessionOpen, ledger.SessionPaid, ledger.SessionExpired}, got.State)
	r, err := p.Refund(ctx, ledger.RefundRequest{RefundID: "rfd_1", PaymentRef: "pi_1", Cents: 100, Mode: core.ModeTest})
	require.NoError(t, err)
	require.Regexp(t, `^re_`, r.ID)

	// A test key never takes live money.
	_, err = p.CreateCheckoutSession(ctx, ledger.CheckoutRequest{CheckoutID: "chk_2", Mode: core.ModeLive, UnitCents: 1, Quantity: 1, ExpiresAt: time.Now().Add(time.Hour)})
	require.Equal(t, core.CodeInvalidRequestState, core.ErrorCode(err))
}

// stripeEnv is an App paying through Stripe (stripe-mock) with the webhook
// receiver on a test server.
type stripeEnv struct {
	env   *apptest.Env
	owner core.Principal
	hook  *httptest.Server
	seq   int
}

func newStripeEnv(t *testing.T) *stripeEnv {
	t.Helper()
	env := apptest.New(t)
	env.App.Ledger.Payments = payments.NewStripeProcessor(payments.StripeConfig{SecretKey: "sk_test_123", APIBase: stripemock.Start(t), SiteURL: env.SiteURL})
	hook := httptest.NewServer(payments.StripeWebhook{Secret: webhookSecret, Events: env.App.Billing})
	t.Cleanup(hook.Close)
	_, owner := env.SignIn(t, env.OwnerEmail)
	return &stripeEnv{env: env, owner: owner, hook: hook}
}

// deliver posts a signed event; it returns the status.
func (s *stripeEnv) deliver(t *testing.T, id, typ string, object map[string]any) int {
	t.Helper()
	body, err := json.Marshal(map[string]any{"id": id, "object": "event", "type": typ, "api_version": "2023-10-16", "data": map[string]any{"object": object}})
	require.NoError(t, err)
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: webhookSecret})
	req, err := http.NewRequest(http.MethodPost, s.hook.URL, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Stripe-Signature", signed.Header)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	return res.StatusCode
}

func (s *stripeEnv) completed(t *testing.T, evID, session, ref, pi string) int {
	return s.deliver(t, evID, "checkout.session.completed", map[string]any{
		"id": session, "object": "checkout.session", "client_reference_id": ref, "payment_status": "paid", "status": "complete", "payment_intent": pi,
	})
}

func (s *stripeEnv) expired(t *testing.T, evID, session, ref string) int {
	return s.deliver(t, evID, "checkout.session.expired", map[string]any{
		"id": session, "object": "checkout.session", "client_reference_id": ref, "payment_status": "unpaid", "status": "expired",
	})
}

func (s *stripeEnv) session(t *testing.T, checkoutID string) string {
	t.Helper()
	row, err := db.New(s.env.App.DB).CheckoutGet(context.Background(), db.CheckoutGetParams{WorkspaceID: s.env.WorkspaceID, ID: checkoutID})
	require.NoError(t, err)
	return *row.ProcessorSessionID
}

func (s *stripeEnv) checkout(t *testing.T, people int, key string) billing.Checkout {
	t.Helper()
	b := s.env.NewBatch(t, s.owner, people)
	c, err := s.env.App.Billing.CreateCampaignCheckout(context.Background(), s.owner, b.ID, billing.CheckoutParams{ExpectedPolicyVersion: b.PolicyVersion, IdempotencyKey: key})
	require.NoError(t, err)
	return c
}

func (s *stripeEnv) read(t *testing.T, id string) billing.Checkout {
	t.Helper()
	list, err := s.env.App.Billing.ListInvoices(context.Background(), s.owner, billing.InvoiceFilter{Limit: 100})
	require.NoError(t, err)
	for _, c := range list {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("checkout %s not listed", id)
	return billing.Checkout{}
}

// Payment results come only from signed events, each applied once: paid
// twice (a replay and a second event), an expiry after payment, a payment
// after expiry and after cancel, a refund; the payment page's return
// changes nothing, and a bad signature is refused.
func TestStripeCheckoutEvents(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStripeEnv(t)
	app := s.env.App

	c := s.checkout(t, 3, "stripe-key-1")
	require.Equal(t, billing.CheckoutOpen, c.State)
	require.Regexp(t, `^https://checkout\.stripe\.com/`, c.URL)
	sess := s.session(t, c.ID)

	// A forged event is refused and changes nothing.
	body := []byte(`{"id":"evt_forged","type":"checkout.session.completed","data":{"object":{"id":"` + sess + `","payment_status":"paid"}}}`)
	res, err := http.Post(s.hook.URL, "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Equal(t, billing.CheckoutOpen, s.read(t, c.ID).State)

	require.Equal(t, http.StatusOK, s.completed(t, "evt_paid_1", sess, c.ID, "pi_paid_1"))
	paid := s.read(t, c.ID)
	require.Equal(t, billing.CheckoutPaid, paid.State)
	require.Equal(t, http.StatusOK, s.completed(t, "evt_paid_1", sess, c.ID, "pi_paid_1"), "a replay")
	require.Equal(t, http.StatusOK, s.completed(t, "evt_paid_2", sess, c.ID, "pi_other"), "paid twice")
	require.Equal(t, http.StatusOK, s.expired(t, "evt_exp_late", sess, c.ID), "an expiry delivered out of order")
	require.Equal(t, paid, s.read(t, c.ID))
	row, err := db.New(app.DB).CheckoutGet(ctx, db.CheckoutGetParams{WorkspaceID: s.env.WorkspaceID, ID: c.ID})
	require.NoError(t, err)
	require.Equal(t, "pi_paid_1", row.PaymentRef)
	// Reconcile with stripe-mock (which reports every session open) keeps it paid.
	r, err := app.Billing.ReconcileCampaignCheckout(ctx, s.owner, c.ID)
	require.NoError(t, err)
	require.Equal(t, billing.CheckoutPaid, r.State)

	// A refund reported by Stripe is recorded once, never lowered.
	require.Equal(t, http.StatusOK, s.deliver(t, "evt_ref_1", "charge.refunded", map[string]any{"id": "ch_1", "object": "charge", "payment_intent": "pi_paid_1", "amount_refunded": 500}))
	require.Equal(t, http.StatusOK, s.deliver(t, "evt_ref_0", "charge.refunded", map[string]any{"id": "ch_1", "object": "charge", "payment_intent": "pi_paid_1", "amount_refunded": 200}))
	row, err = db.New(app.DB).CheckoutGet(ctx, db.CheckoutGetParams{WorkspaceID: s.env.WorkspaceID, ID: c.ID})
	require.NoError(t, err)
	require.Equal(t, int64(500), row.RefundedCents)

	// A refund larger than the charge paid is stored as an anomaly for staff
	// and changes nothing.
	require.Equal(t, http.StatusOK, s.deliver(t, "evt_ref_big", "charge.refunded", map[string]any{"id": "ch_1", "object": "charge", "payment_intent": "pi_paid_1", "amount_refunded": 99_999_999}))
	row, err = db.New(app.DB).CheckoutGet(ctx, db.CheckoutGetParams{WorkspaceID: s.env.WorkspaceID, ID: c.ID})
	require.NoError(t, err)
	require.Equal(t, int64(500), row.RefundedCents, "an impossible refund is not recorded")
	var outcome string
	require.NoError(t, app.DB.QueryRow(ctx, `SELECT outcome FROM processor_events WHERE id = 'evt_ref_big'`).Scan(&outcome))
	require.Contains(t, outcome, "refund_anomaly: checkout "+c.ID)
	require.Contains(t, outcome, "99999999 cents refunded")

	// Paid after expiry: stays expired, the payment recorded for staff.
	e := s.checkout(t, 2, "stripe-key-2")
	esess := s.session(t, e.ID)
	require.Equal(t, http.StatusOK, s.expired(t, "evt_exp_2", esess, e.ID))
	require.Equal(t, billing.CheckoutExpired, s.read(t, e.ID).State)
	require.Equal(t, http.StatusOK, s.completed(t, "evt_paid_3", esess, e.ID, "pi_late_3"))
	require.Equal(t, billing.CheckoutExpired, s.read(t, e.ID).State)
	row, err = db.New(app.DB).CheckoutGet(ctx, db.CheckoutGetParams{WorkspaceID: s.env.WorkspaceID, ID: e.ID})
	require.NoError(t, err)
	require.Equal(t, "pi_late_3", row.LatePaymentRef)

	// Paid after cancel: the same.
	k := s.checkout(t, 2, "stripe-key-3")
	cancelled, err := app.Billing.CancelCampaignCheckout(ctx, s.owner, k.ID)
	require.NoError(t, err)
	require.Equal(t, billing.CheckoutCancelled, cancelled.State)
	require.Equal(t, http.StatusOK, s.completed(t, "evt_paid_4", s.session(t, k.ID), k.ID, "pi_late_4"))
	require.Equal(t, billing.CheckoutCancelled, s.read(t, k.ID).State)
}

// A top-up through Stripe is credited once, from the webhook; the ledger
// stays the sum of its entries.
func TestStripeTopupCreditedOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStripeEnv(t)
	app := s.env.App
	ts, err := app.Ledger.CreateBalanceTopup(ctx, s.owner, ledger.TopupParams{Cents: 5_000, IdempotencyKey: "stripe-topup-1"})
	require.NoError(t, err)
	require.Regexp(t, `^cs_`, ts.SessionID)
	row, err := db.New(app.DB).TopupGetBySession(ctx, ts.SessionID)
	require.NoError(t, err)
	require.Equal(t, payments.StripeProcessorName, row.Processor)
	b, err := app.Approvals.Balance(ctx, s.owner)
	require.NoError(t, err)
	require.Zero(t, b.Cents, "nothing before Stripe says so")

	for _, ev := range []string{"evt_top_1", "evt_top_1", "evt_top_2"} {
		require.Equal(t, http.StatusOK, s.completed(t, ev, ts.SessionID, row.ID, "pi_top"))
	}
	require.Equal(t, http.StatusOK, s.expired(t, "evt_top_exp", ts.SessionID, row.ID))
	b, err = app.Approvals.Balance(ctx, s.owner)
	require.NoError(t, err)
	require.Equal(t, int64(5_000), b.Cents)
	s.env.RequireLedgerConsistent(t, s.owner)
}

func (s *stripeEnv) topupID(t *testing.T, session string) string {
	t.Helper()
	row, err := db.New(s.env.App.DB).TopupGetBySession(context.Background(), session)
	require.NoError(t, err)
	return row.ID
}
