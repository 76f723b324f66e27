package main

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/internal/payments"
)

// STRIPE_SECRET_KEY chooses Stripe, its absence the sandbox; the webhook
// route exists only with STRIPE_WEBHOOK_SECRET and refuses unsigned bodies.
func TestPaymentSettings(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	require.IsType(t, payments.SandboxProcessor{}, paymentSettings{}.processor(env.App))
	require.IsType(t, &payments.StripeProcessor{}, paymentSettings{stripeSecretKey: "sk_test_123"}.processor(env.App))

	for secret, want := range map[string]int{"": http.StatusNotFound, "whsec_1": http.StatusBadRequest} {
		srv := httptest.NewServer(routes(env.App, slog.New(slog.DiscardHandler), withStripeWebhook(secret)))
		res, err := http.Post(srv.URL+"/stripe/webhook", "application/json", strings.NewReader(`{"id":"evt_1","type":"checkout.session.completed"}`))
		require.NoError(t, err)
		res.Body.Close()
		srv.Close()
		require.Equal(t, want, res.StatusCode, "secret %q", secret)
	}
}
