package payments

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/client"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/ledger"
)

// StripeProcessorName is the Name of the Stripe processor, stored on the
// top-ups and checkouts it opens.
const StripeProcessorName = "stripe"

// StripeConfig configures the Stripe processor (cmd/giftwell reads it from
// STRIPE_SECRET_KEY and STRIPE_API_BASE).
type StripeConfig struct {
	// SecretKey is the account's secret key (sk_test_... or sk_live_...).
	// A test key takes test-mode payments only, a live key live-mode ones.
	SecretKey string
	// APIBase overrides https://api.stripe.com (stripe-mock in tests).
	APIBase string
	// SiteURL is the service's web address, for the return pages.
	SiteURL string
	// HTTPClient is the client of the calls; nil is a client with a
	// 30-second timeout.
	HTTPClient *http.Client
}

// StripeProcessor takes card payments through Stripe Checkout Sessions in
// payment mode. Every create carries an idempotency key derived from
// Giftwell's own row (giftwell-topup-<top-up ID>,
// giftwell-checkout-<checkout ID>, giftwell-refund-<refund ID>), so a
// retried request gives the same session or refund.
type StripeProcessor struct {
	api  *client.API
	live bool
}

var _ ledger.PaymentProcessor = (*StripeProcessor)(nil)

// NewStripeProcessor is the Stripe processor of cfg.
func NewStripeProcessor(cfg StripeConfig) *StripeProcessor {
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: stripeTimeout}
	}
	bc := &stripe.BackendConfig{HTTPClient: hc, MaxNetworkRetries: stripe.Int64(2), LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelError}}
	if cfg.APIBase != "" {
		bc.URL = stripe.String(strings.TrimRight(cfg.APIBase, "/"))
	}
	api := &client.API{}
	api.Init(cfg.SecretKey, &stripe.Backends{
		API:     stripe.GetBackendWithConfig(stripe.APIBackend, bc),
		Connect: stripe.GetBackendWithConfig(stripe.ConnectBackend, bc),
		Uploads: stripe.GetBackendWithConfig(stripe.UploadsBackend, bc),
	})
	live := strings.HasPrefix(cfg.SecretKey, "sk_live_") || strings.HasPrefix(cfg.SecretKey, "rk_live_")
	return &StripeProcessor{api: api, live: live}
}

var _ ledger.LiveReporter = (*StripeProcessor)(nil)

// Live implements ledger.LiveReporter: true for a live key (sk_live_,
// rk_live_), false for a test key, which takes test payments only.
func (s *StripeProcessor) Live() bool { return s.live }

// Name implements ledger.PaymentProcessor: "stripe".
func (*StripeProcessor) Name() string { return StripeProcessorName }

// modeRefused is INVALID_REQUEST_STATE when the key cannot take payments
// of mode: test funds come from a test key, live funds from a live key.
func (s *StripeProcessor) modeRefused(mode core.Mode) error {
	if (mode == core.ModeLive) != s.live {
		return core.Errorf(core.CodeInvalidRequestState, "%s payments need a Stripe %s key; this service is configured with the other kind", mode, mode)
	}
	return nil
}

// CreateTopupSession implements ledger.PaymentProcessor: one line of
// req.Cents, client_reference_id the top-up ID.
func (s *StripeProcessor) CreateTopupSession(ctx context.Context, req ledger.TopupRequest) (ledger.ProcessorSession, error) {
	if err := s.modeRefused(req.Mode); err != nil {
		return ledger.ProcessorSession{}, err
	}
	// The balance page asks Stripe about the session when the payer is back.
	params := sessionParams(ctx, req.TopupID, "Giftwell balance top-up", req.Cents, 1, req.ReturnURL+"?topup={CHECKOUT_SESSION_ID}", req.ReturnURL)
	params.AddMetadata("giftwell_kind", "topup")
	params.AddMetadata("giftwell_topup_id", req.TopupID)
	params.AddMetadata("giftwell_workspace_id", req.WorkspaceID)
	params.AddMetadata("giftwell_mode", string(req.Mode))
	params.SetIdempotencyKey("giftwell-topup-" + req.TopupID)
	return s.newSession(params)
}

// CreateCheckoutSession implements ledger.PaymentProcessor: one line of
// req.Quantity gifts at req.UnitCents, client_reference_id the checkout
// ID, expiring at req.ExpiresAt, with an invoice.
func (s *StripeProcessor) CreateCheckoutSession(ctx context.Context, req ledger.CheckoutRequest) (ledger.ProcessorSession, error) {
	if err := s.modeRefused(req.Mode); err != nil {
		return ledger.ProcessorSession{}, err
	}
	params := sessionParams(ctx, req.CheckoutID, req.Description, req.UnitCents, req.Quantity, req.SuccessURL, req.CancelURL)
	params.ExpiresAt = stripe.Int64(req.ExpiresAt.Unix())
	params.InvoiceCreation = &stripe.CheckoutSessionInvoiceCreationParams{Enabled: stripe.Bool(true)}
	params.AddMetadata("giftwell_kind", "checkout")
	params.AddMetadata("giftwell_checkout_id", req.CheckoutID)
	params.AddMetadata("giftwell_campaign_id", req.CampaignID)
	params.AddMetadata("giftwell_workspace_id", req.WorkspaceID)
	params.AddMetadata("giftwell_mode", string(req.Mode))
	params.AddMetadata("giftwell_quantity", strconv.Itoa(req.Quantity))
	params.SetIdempotencyKey("giftwell-checkout-" + req.CheckoutID)
	return s.newSession(params)
}

// sessionParams are the parameters every Giftwell Checkout Session shares.
func sessionParams(ctx context.Context, ref, name string, unitCents int64, quantity int, successURL, cancelURL string) *stripe.CheckoutSessionParams {
	p := &stripe.CheckoutSessionParams{
		Mode:              stripe.String(string(stripe.CheckoutSessionModePayment)),
		ClientReferenceID: stripe.String(ref),
		SuccessURL:        stripe.String(successURL),
		CancelURL:         stripe.String(cancelURL),
		LineItems: []*stripe.CheckoutSessionLineItemParams{{
			Quantity: stripe.Int64(int64(quantity)),
			PriceData: &stripe.CheckoutSessionLineItemPriceDataParams{
				Currency:    stripe.String(string(stripe.CurrencyUSD)),
				UnitAmount:  stripe.Int64(unitCents),
				ProductData: &stripe.CheckoutSessionLineItemPriceDataProductDataParams{Name: stripe.String(name)},
			},
		}},
	}
	p.Context = ctx
	return p
}

func (s *StripeProcessor) newSession(params *stripe.CheckoutSessionParams) (ledger.ProcessorSession, error) {
	cs, err := s.api.CheckoutSessions.New(params)
	if err != nil {
		return ledger.ProcessorSession{}, stripeError(err)
	}
	return ledger.ProcessorSession{ID: cs.ID, URL: cs.URL}, nil
}

// RetrieveSession implements ledger.PaymentProcessor: the session with its
// PaymentIntent and invoice.
func (s *StripeProcessor) RetrieveSession(ctx context.Context, sessionID string) (ledger.SessionResult, error) {
	params := &stripe.CheckoutSessionParams{}
	params.Context = ctx
	params.AddExpand("invoice")
	cs, err := s.api.CheckoutSessions.Get(sessionID, params)
	if err != nil {
		return ledger.SessionResult{}, stripeError(err)
	}
	return sessionResult(cs), nil
}

// ExpireSession implements ledger.PaymentProcessor. A session Stripe
// already completed cannot expire: it is read and returned (SessionPaid).
func (s *StripeProcessor) ExpireSession(ctx context.Context, sessionID string) (ledger.SessionResult, error) {
	params := &stripe.CheckoutSessionExpireParams{}
	params.Context = ctx
	cs, err := s.api.CheckoutSessions.Expire(sessionID, params)
	if err != nil {
		var se *stripe.Error
		if errors.As(err, &se) && se.HTTPStatusCode == http.StatusBadRequest {
			return s.RetrieveSession(ctx, sessionID)
		}
		return ledger.SessionResult{}, stripeError(err)
	}
	res := sessionResult(cs)
	if res.State == ledger.SessionOpen {
		res.State = ledger.SessionExpired
	}
	return res, nil
}

// sessionResult maps a Checkout Session.
func sessionResult(cs *stripe.CheckoutSession) ledger.SessionResult {
	var out ledger.SessionResult
	switch {
	case cs.Status == stripe.CheckoutSessionStatusComplete && cs.PaymentStatus != stripe.CheckoutSessionPaymentStatusUnpaid:
		out.State = ledger.SessionPaid
	case cs.Status == stripe.CheckoutSessionStatusExpired:
		out.State = ledger.SessionExpired
	default:
		out.State = ledger.SessionOpen
	}
	if cs.PaymentIntent != nil {
		out.PaymentRef = cs.PaymentIntent.ID
	}
	if cs.Invoice != nil {
		out.InvoiceURL, out.InvoicePDF = cs.Invoice.HostedInvoiceURL, cs.Invoice.InvoicePDF
	}
	return out
}

// Refund implements ledger.PaymentProcessor: a refund of req.Cents of the
// PaymentIntent req.PaymentRef, with its status as Stripe holds it now. A
// repeated call with the same RefundID is answered from Stripe's
// idempotency cache, so a refund not yet succeeded is read again
// (Refunds.Get) to learn whether it has finished since.
func (s *StripeProcessor) Refund(ctx context.Context, req ledger.RefundRequest) (ledger.RefundResult, error) {
	if err := s.modeRefused(req.Mode); err != nil {
		return ledger.RefundResult{}, err
	}
	params := &stripe.RefundParams{PaymentIntent: stripe.String(req.PaymentRef), Amount: stripe.Int64(req.Cents)}
	params.Context = ctx
	params.AddMetadata("giftwell_refund_id", req.RefundID)
	params.SetIdempotencyKey("giftwell-refund-" + req.RefundID)
	r, err := s.api.Refunds.New(params)
	if err != nil {
		return ledger.RefundResult{}, stripeError(err)
	}
	if r.Status != stripe.RefundStatusSucceeded {
		gp := &stripe.RefundParams{}
		gp.Context = ctx
		cur, err := s.api.Refunds.Get(r.ID, gp)
		if err != nil {
			return ledger.RefundResult{}, stripeError(err)
		}
		r = cur
	}
	return refundResult(r), nil
}

// refundResult is Stripe's refund r as the ledger reads it.
func refundResult(r *stripe.Refund) ledger.RefundResult {
	out := ledger.RefundResult{ID: r.ID, Succeeded: r.Status == stripe.RefundStatusSucceeded}
	if r.Status == stripe.RefundStatusFailed || r.Status == stripe.RefundStatusCanceled {
		out.Failed, out.FailureReason = true, string(r.FailureReason)
		if out.FailureReason == "" {
			out.FailureReason = string(r.Status)
		}
	}
	return out
}

// stripeError maps Stripe's answer: a card or request refusal (4xx other
// than 401/403/429) is a *core.Error the caller shows; anything else is an
// unknown outcome (a plain error) the caller may retry with the same key.
func stripeError(err error) error {
	var se *stripe.Error
	if errors.As(err, &se) {
		switch {
		case se.HTTPStatusCode == http.StatusBadRequest || se.HTTPStatusCode == http.StatusPaymentRequired || se.HTTPStatusCode == http.StatusNotFound:
			return core.Errorf(core.CodeInvalidRequestState, "the payment processor refused: %s", se.Msg)
		}
		b, _ := json.Marshal(se)
		return errors.New("stripe: " + string(b))
	}
	return err
}
