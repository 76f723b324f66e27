package payments_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/billing"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/internal/payments"
)

// get_billing_config says live only when real money moves: Stripe with a
// test key takes test payments only and reads as sandbox.
func TestBillingConfigModeFollowsTheStripeKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	app := env.App
	for _, tc := range []struct {
		key  string
		want billing.BillingMode
	}{
		{"sk_test_123", billing.BillingSandbox},
		{"rk_test_123", billing.BillingSandbox},
		{"sk_live_123", billing.BillingLive},
		{"rk_live_123", billing.BillingLive},
	} {
		app.Ledger.Payments = payments.NewStripeProcessor(payments.StripeConfig{SecretKey: tc.key, APIBase: "http://127.0.0.1:1"})
		cfg, err := app.Billing.BillingConfig(ctx, owner)
		require.NoError(t, err)
		require.Equal(t, billing.BillingConfig{Enabled: true, Mode: tc.want, CanPay: true}, cfg, tc.key)
	}
	app.Ledger.Payments = payments.SandboxProcessor{SiteURL: app.Config.SiteURL}
	cfg, err := app.Billing.BillingConfig(ctx, owner)
	require.NoError(t, err)
	require.Equal(t, billing.BillingSandbox, cfg.Mode)
}
