package webhook_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/webhook"
	"github.com/giftwell/giftwell/internal/apptest"
)

// hooks is a workspace whose signed-in owner adds endpoints that point at
// loopback receivers.
type hooks struct {
	t     *testing.T
	env   *apptest.Env
	owner core.Principal
	key   core.Principal
}

func newHooks(t *testing.T) *hooks {
	t.Helper()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	key, err := env.App.Connect.Authenticate(context.Background(), env.OwnerKey)
	require.NoError(t, err)
	return &hooks{t: t, env: env, owner: owner, key: key}
}

// endpoint adds an endpoint for events at url.
func (h *hooks) endpoint(url string, events ...string) webhook.CreatedEndpoint {
	h.t.Helper()
	e, err := h.env.App.Webhooks.Create(context.Background(), h.owner, webhook.EndpointInput{URL: url, Events: events})
	require.NoError(h.t, err)
	return e
}

// event records an event of type typ for gift sendID, as a write does.
func (h *hooks) event(typ core.EventType, sendID string) {
	h.t.Helper()
	ctx := context.Background()
	require.NoError(h.t, pgx.BeginFunc(ctx, h.env.App.DB, func(tx pgx.Tx) error {
		return h.env.App.RecordEvent(ctx, tx, core.EventRecord{
			WorkspaceID: h.env.WorkspaceID, Type: typ, Mode: core.ModeTest, CampaignID: "cmp_x", SendID: sendID,
			Data: map[string]any{"sendId": sendID},
		})
	}))
}

// pending is the attempt each waiting delivery's job would make next.
func (h *hooks) pending() []webhook.DeliverArgs {
	h.t.Helper()
	rows, err := h.env.App.DB.Query(context.Background(),
		`SELECT id, cycle, attempts + 1 FROM webhook_deliveries WHERE state IN ('pending', 'retrying') ORDER BY event_seq, id`)
	require.NoError(h.t, err)
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (webhook.DeliverArgs, error) {
		var a webhook.DeliverArgs
		return a, r.Scan(&a.DeliveryID, &a.Cycle, &a.Attempt)
	})
	require.NoError(h.t, err)
	return out
}

// receiver starts a loopback receiver the App may deliver to.
func (h *hooks) receiver(statuses ...int) *apptest.Receiver {
	return h.env.Receiver(h.t, statuses...)
}

// wait is how long a test waits for a loopback answer.
const wait = 10 * time.Second
