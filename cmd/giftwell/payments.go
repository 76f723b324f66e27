package main

import (
	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/internal/payments"
)

// paymentSettings are the payment processor's settings from the
// environment: Stripe when STRIPE_SECRET_KEY is set (STRIPE_API_BASE points
// it elsewhere, e.g. at stripe-mock; STRIPE_WEBHOOK_SECRET verifies
// /stripe/webhook), the local sandbox otherwise.
type paymentSettings struct {
	stripeSecretKey     string
	stripeAPIBase       string
	stripeWebhookSecret string
}

// paymentSettingsFromEnv reads paymentSettings.
func paymentSettingsFromEnv() paymentSettings {
	return paymentSettings{
		stripeSecretKey:     env("STRIPE_SECRET_KEY", ""),
		stripeAPIBase:       env("STRIPE_API_BASE", ""),
		stripeWebhookSecret: env("STRIPE_WEBHOOK_SECRET", ""),
	}
}

// processor is the payment processor the settings choose.
func (s paymentSettings) processor(app *giftwell.App) ledger.PaymentProcessor {
	if s.stripeSecretKey == "" {
		return payments.SandboxProcessor{SiteURL: app.Config.SiteURL}
	}
	return payments.NewStripeProcessor(payments.StripeConfig{SecretKey: s.stripeSecretKey, APIBase: s.stripeAPIBase, SiteURL: app.Config.SiteURL})
}

// withStripeWebhook serves POST /stripe/webhook, verified with secret;
// without a secret the route does not exist.
func withStripeWebhook(secret string) routeOption {
	return func(c *routeConfig) { c.stripeWebhookSecret = secret }
}
