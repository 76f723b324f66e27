package web_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/webhook"
	"github.com/giftwell/giftwell/internal/apptest"
)

// loopbackGuard stands in for the real URL guard (internal/webhooksend,
// which refuses every address that is not public and allows the operator's
// prefixes) until the lead merges it and apptest provides it: it accepts
// only http://127.0.0.1: URLs, the loopback receivers of these tests.
type loopbackGuard struct{}

var _ webhook.URLGuard = loopbackGuard{}

func (loopbackGuard) CheckURL(_ context.Context, raw string) error {
	if !strings.HasPrefix(raw, "http://127.0.0.1:") {
		return errors.New("must be a public HTTPS address; this one is not reachable from Giftwell")
	}
	return nil
}

// answeringSender stands in for the real sender (internal/webhooksend):
// every attempt is answered with Status, and the last one is kept.
type answeringSender struct {
	mu     sync.Mutex
	status int
	header http.Header
	body   []byte
}

var _ webhook.Sender = (*answeringSender)(nil)

func (s *answeringSender) Send(_ context.Context, _ string, header http.Header, body []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.header, s.body = header.Clone(), append([]byte(nil), body...)
	return s.status, nil
}

// answer sets the status every attempt gets.
func (s *answeringSender) answer(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status = status
}

// last is the last attempt's headers and body.
func (s *answeringSender) last() (http.Header, []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.header, s.body
}

// hooks is a harness whose App has the test guard and sender.
type hooks struct {
	*harness
	sender *answeringSender
}

func newHooks(t *testing.T) *hooks {
	t.Helper()
	h := newHarness(t)
	sender := &answeringSender{status: http.StatusOK}
	h.env.App.Webhooks.Guard = loopbackGuard{}
	h.env.App.Webhooks.Sender = sender
	return &hooks{harness: h, sender: sender}
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
