package web_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/webhook"
	"github.com/giftwell/giftwell/internal/apptest"
)

// hooks is a harness with a loopback receiver its webhooks may reach.
type hooks struct {
	*harness
	// sender receives the deliveries.
	sender *apptest.Receiver
	// base is the receiver's URL; endpoints are under it.
	base string
}

func newHooks(t *testing.T) *hooks {
	t.Helper()
	h := newHarness(t)
	rcv := h.env.Receiver(t)
	return &hooks{harness: h, sender: rcv, base: rcv.URL}
}

var secretPattern = regexp.MustCompile(`<code id="webhook-secret" class="secret-value">([^<]*)</code>`)

// addEndpoint adds an endpoint through the page as c and returns its ID
// and the secret the page showed.
func (h *hooks) addEndpoint(c *client, rawURL string, events ...string) (id, secret string) {
	h.t.Helper()
	res := c.post("/settings/webhooks", url.Values{"url": {rawURL}, "events": events})
	require.Equal(h.t, http.StatusOK, res.StatusCode, res.Body)
	m := secretPattern.FindStringSubmatch(res.Body)
	require.NotNil(h.t, m, res.Body)
	list, err := h.env.App.Webhooks.List(context.Background(), h.ownerPrincipal())
	require.NoError(h.t, err)
	for _, e := range list {
		if e.URL == rawURL {
			id = e.ID
		}
	}
	require.NotEmpty(h.t, id, "the endpoint is listed")
	return id, m[1]
}

// record writes events of type typ in one transaction of their own, as
// a gift's change does.
func (h *hooks) record(typ core.EventType, n int) {
	h.t.Helper()
	ctx := context.Background()
	require.NoError(h.t, pgx.BeginFunc(ctx, h.env.App.DB, func(tx pgx.Tx) error {
		for i := range n {
			ev := core.EventRecord{WorkspaceID: h.env.WorkspaceID, Type: typ, Mode: core.ModeTest,
				CampaignID: "cmp_hooks", SendID: "send_hooks_" + string(rune('a'+i%26)), RecipientID: "recipient_hooks"}
			if err := h.env.App.RecordEvent(ctx, tx, ev); err != nil {
				return err
			}
		}
		return nil
	}))
}

// deliveries lists endpoint id's deliveries of source through core.
func (h *hooks) deliveries(id, source string) []webhook.Delivery {
	h.t.Helper()
	page, err := h.env.App.Webhooks.Deliveries(context.Background(), h.ownerPrincipal(), id, webhook.DeliveryQuery{Source: source, Limit: webhook.MaxDeliveryLimit})
	require.NoError(h.t, err)
	return page.Items
}

// work runs every waiting delivery job once, at once rather than when
// due, as River's worker would: each makes one attempt through the sender.
func (h *hooks) work() {
	h.t.Helper()
	apptest.WorkJobs(h.t, h.env.App, &webhook.DeliverWorker{Webhooks: h.env.App.Webhooks})
}
