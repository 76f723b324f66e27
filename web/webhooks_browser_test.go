package web_test

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/webhook"
)

// An owner adds an endpoint in the browser, sees its secret once with a
// copy button, then opens its deliveries and retries a dead one.
func TestBrowserWebhookEndpointAndDeliveries(t *testing.T) {
	t.Parallel()
	h := newHooks(t)
	b := newBrowser(t)
	b.signIn(h.site, h.env.OwnerEmail)

	b.open(h.site + "/settings")
	require.EqualValues(t, 200, b.submit(`a[href="/settings/webhooks"]`))
	require.Equal(t, h.site+"/settings/webhooks", b.location())
	b.fill("url", "https://10.1.2.3/hook")
	require.EqualValues(t, 400, b.submit(`form[action="/settings/webhooks"] button[type=submit]`))
	require.Contains(t, b.text("#url-error"), "10.1.2.3 is a private (RFC 1918) address, not a public address")
	require.Equal(t, "https://10.1.2.3/hook", b.value("url"), "the URL is kept")
	b.saveScreenshot("webhooks-url-error")

	b.do(chromedp.Clear(chromedp.ID("url")))
	b.fill("url", h.base+"/receiver")
	require.EqualValues(t, 200, b.submit(`form[action="/settings/webhooks"] button[type=submit]`))
	secret := b.text("#webhook-secret")
	require.Regexp(t, regexp.MustCompile(`^[0-9a-f]{64}$`), secret)
	require.Contains(t, b.text("#new-webhook-title"), "signing secret")
	b.click(`button[data-copy="webhook-secret"]`)
	status := b.poll(`document.querySelector('[data-copy-status="webhook-secret"]').textContent`)
	require.Contains(t, []string{"Copied", "Press Ctrl+C (⌘C) to copy"}, status)
	b.saveScreenshot("webhooks-secret")

	// Reloading reads the page again: the secret is gone, the endpoint is
	// listed, and no second one was added.
	require.EqualValues(t, 200, b.reload())
	require.Equal(t, h.site+"/settings/webhooks", b.location())
	require.False(t, b.exists("#webhook-secret"))
	require.NotContains(t, b.text("main"), secret)
	require.Contains(t, b.text("#webhooks"), h.base+"/receiver")
	b.saveScreenshot("webhooks-list")

	// One delivery fails 8 times and dies; a newer one is delivered.
	h.sender.Answer(http.StatusServiceUnavailable)
	h.record(core.EventSendCreated, 1)
	for range webhook.MaxAttempts {
		h.work()
	}
	h.sender.Answer(http.StatusOK)
	h.record(core.EventSendStatusChanged, 1)
	h.work()
	gifts := h.deliveries(h.endpointID(), webhook.SourceGift)
	require.Len(t, gifts, 2)
	dead := gifts[1]
	require.Equal(t, webhook.StateDead, dead.State)

	require.EqualValues(t, 200, b.submit(`#webhooks a[href^="/settings/webhooks/whk_"]`))
	row := `#deliveries tr[data-delivery="` + dead.ID + `"]`
	require.Contains(t, b.text(row), "dead")
	require.Contains(t, b.text(row), "answered 503")
	require.Contains(t, b.text(`#deliveries tr[data-delivery="`+gifts[0].ID+`"]`), "delivered")
	b.saveScreenshot("webhooks-deliveries")

	require.EqualValues(t, 200, b.submit(row+` button[type=submit]`))
	require.Contains(t, b.text(".alert-success"), "new cycle of up to 8 attempts")
	require.Contains(t, b.text(row), "pending")
	require.False(t, b.exists(row+` button[type=submit]`), "a pending delivery has no Retry")
	b.saveScreenshot("webhooks-retried")
}

// endpointID is the ID of the workspace's only endpoint.
func (h *hooks) endpointID() string {
	h.t.Helper()
	list, err := h.env.App.Webhooks.List(h.t.Context(), h.ownerPrincipal())
	require.NoError(h.t, err)
	require.Len(h.t, list, 1)
	return list[0].ID
}
