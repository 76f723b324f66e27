package payments_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/internal/payments"
)

// fakeRefunds is Stripe's refunds API answering a refund created with
// created, then read back as current (with reason when failed).
type fakeRefunds struct {
	mu               sync.Mutex
	created, current string
	reason           string
	reads            int
}

func (f *fakeRefunds) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := f.created
	if r.Method == http.MethodGet {
		f.reads++
		st = f.current
	}
	body := map[string]any{"id": "re_fake", "object": "refund", "status": st, "amount": 100, "currency": "usd"}
	if st == "failed" {
		body["failure_reason"] = f.reason
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(body)
}

// A Stripe refund is succeeded only when Stripe says so: one created
// pending is read again (an idempotent replay answers the first status),
// and failed carries Stripe's reason.
func TestStripeRefundReportsStripesStatus(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := &fakeRefunds{created: "pending", current: "pending"}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	p := payments.NewStripeProcessor(payments.StripeConfig{SecretKey: "sk_test_123", APIBase: srv.URL})
	req := ledger.RefundRequest{RefundID: "rfd_1", PaymentRef: "pi_1", Cents: 100, Mode: core.ModeTest}

	r, err := p.Refund(ctx, req)
	require.NoError(t, err)
	require.Equal(t, ledger.RefundResult{ID: "re_fake"}, r, "pending: neither succeeded nor failed")

	f.mu.Lock()
	f.current = "succeeded"
	f.mu.Unlock()
	r, err = p.Refund(ctx, req)
	require.NoError(t, err)
	require.Equal(t, ledger.RefundResult{ID: "re_fake", Succeeded: true}, r, "the replay's pending is read again")

	f.mu.Lock()
	f.current, f.reason = "failed", "expired_or_canceled_card"
	f.mu.Unlock()
	r, err = p.Refund(ctx, req)
	require.NoError(t, err)
	require.Equal(t, ledger.RefundResult{ID: "re_fake", Failed: true, FailureReason: "expired_or_canceled_card"}, r)
	require.Equal(t, 3, f.reads)
}
