// Package payments holds Giftwell's payment processors, the adapters behind
// core.PaymentProcessor. Today that is the local sandbox; Stripe joins it.
// cmd/giftwell chooses one and sets it as core.App.Payments.
//
//	app.Payments = payments.SandboxProcessor{SiteURL: app.Config.SiteURL}
package payments

import (
	"context"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/ledger"
)

// SandboxProcessor is the local test processor: its session is a page of
// Giftwell's own, {site}/sandbox/pay/<session id>, where a signed-in owner
// or admin completes a test payment (core.App.CompleteSandboxPayment). No
// money moves, so it refuses live mode.
type SandboxProcessor struct {
	// SiteURL is the service's web address; the payment page is under it.
	SiteURL string
}

var _ ledger.PaymentProcessor = SandboxProcessor{}

// Name implements core.PaymentProcessor: core.SandboxProcessorName.
func (SandboxProcessor) Name() string { return ledger.SandboxProcessorName }

// CreateTopupSession implements core.PaymentProcessor. A live top-up is
// INVALID_REQUEST_STATE: test payments never fund live gifts. Each call
// opens a new session; core keeps the first one recorded for a top-up.
func (s SandboxProcessor) CreateTopupSession(_ context.Context, req ledger.TopupRequest) (ledger.ProcessorSession, error) {
	if req.Mode != core.ModeTest {
		return ledger.ProcessorSession{}, core.Errorf(core.CodeInvalidRequestState, "live funds cannot be added yet: only test payments are available")
	}
	id := "sbx_" + core.RandomHex(12)
	return ledger.ProcessorSession{ID: id, URL: SandboxPayURL(s.SiteURL, id)}, nil
}

// SandboxPayURL is the sandbox payment page of a session.
func SandboxPayURL(siteURL, sessionID string) string {
	return strings.TrimRight(siteURL, "/") + "/sandbox/pay/" + sessionID
}

// CreateCheckoutSession implements ledger.PaymentProcessor: the session is
// the sandbox page, paid or abandoned there by a signed-in owner or admin.
// A live checkout is INVALID_REQUEST_STATE.
func (s SandboxProcessor) CreateCheckoutSession(_ context.Context, req ledger.CheckoutRequest) (ledger.ProcessorSession, error) {
	if req.Mode != core.ModeTest {
		return ledger.ProcessorSession{}, core.Errorf(core.CodeInvalidRequestState, "live checkouts need the card processor: the sandbox takes test payments only")
	}
	id := "sbx_" + core.RandomHex(12)
	return ledger.ProcessorSession{ID: id, URL: SandboxPayURL(s.SiteURL, id)}, nil
}

// RetrieveSession implements ledger.PaymentProcessor: the sandbox keeps no
// state of its own (its page records payments in Giftwell directly), so it
// answers ledger.SessionLocal.
func (SandboxProcessor) RetrieveSession(context.Context, string) (ledger.SessionResult, error) {
	return ledger.SessionResult{State: ledger.SessionLocal}, nil
}

// ExpireSession implements ledger.PaymentProcessor: nothing to close
// elsewhere (ledger.SessionLocal).
func (SandboxProcessor) ExpireSession(context.Context, string) (ledger.SessionResult, error) {
	return ledger.SessionResult{State: ledger.SessionLocal}, nil
}

// Refund implements ledger.PaymentProcessor: a test payment's refund
// succeeds at once; live payments are never the sandbox's.
func (SandboxProcessor) Refund(_ context.Context, req ledger.RefundRequest) (ledger.RefundResult, error) {
	if req.Mode != core.ModeTest {
		return ledger.RefundResult{}, core.Errorf(core.CodeInvalidRequestState, "the sandbox refunds test payments only")
	}
	return ledger.RefundResult{ID: "sbx_re_" + req.RefundID, Succeeded: true}, nil
}
