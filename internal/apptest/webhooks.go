package apptest

import (
	"testing"

	"github.com/giftwell/giftwell/internal/webhooksend"
)

// AllowWebhookURLs lets the App's webhooks register and dial urls (loopback
// receivers of the test) despite the public-address rule, as an operator's
// GIFTWELL_WEBHOOK_ALLOW_URLS does: it rebuilds the real SSRF-guarded
// client with urls added to the prefixes allowed so far. Call it before
// jobs run.
func (e *Env) AllowWebhookURLs(t testing.TB, urls ...string) {
	t.Helper()
	e.webhookPrefixes = append(e.webhookPrefixes, urls...)
	setWebhookClient(t, e, e.webhookPrefixes)
}

// setWebhookClient gives the App's webhooks the real client allowing
// prefixes.
func setWebhookClient(t testing.TB, e *Env, prefixes []string) {
	t.Helper()
	c, err := webhooksend.New(webhooksend.Options{AllowPrefixes: prefixes})
	if err != nil {
		t.Fatalf("apptest: webhook client: %v", err)
	}
	e.App.Webhooks.Sender, e.App.Webhooks.Guard = c, c
}
