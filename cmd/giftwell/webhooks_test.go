package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/webhook"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/webhookverify"
)

// eventIDs counts r's requests per event ID.
func eventIDs(r *apptest.Receiver) map[string]int {
	out := map[string]int{}
	for _, req := range r.Requests() {
		out[req.Header.Get(webhook.HeaderEventID)]++
	}
	return out
}

// recordEvents records n send.created events in transactions of batch.
func recordEvents(t testing.TB, env *apptest.Env, n, batch int) {
	t.Helper()
	ctx := context.Background()
	for done := 0; done < n; done += batch {
		require.NoError(t, pgx.BeginFunc(ctx, env.App.DB, func(tx pgx.Tx) error {
			for i := done; i < min(n, done+batch); i++ {
				if err := env.App.RecordEvent(ctx, tx, core.EventRecord{
					WorkspaceID: env.WorkspaceID, Type: core.EventSendCreated, Mode: core.ModeTest,
					CampaignID: "cmp_fanout", SendID: fmt.Sprintf("send_%06d", i),
				}); err != nil {
					return err
				}
			}
			return nil
		}))
	}
}

// A delivery through serve's River client and the real SSRF-guarded
// sender: the receiver fails twice and then takes it; the deliveries list
// shows three attempts, and the captured request verifies with the
// reference verifier. GIFTWELL_TRANSCRIPT_WEBHOOK names a file for what was
// captured.
func TestWebhookDeliveredAfterTwoFailures(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	env.App.Webhooks.BackoffUnit = time.Millisecond
	_, owner := env.SignIn(t, env.OwnerEmail)
	rcv := env.Receiver(t, http.StatusInternalServerError, http.StatusBadGateway, http.StatusNoContent)
	ep, err := env.App.Webhooks.Create(ctx, owner, webhook.EndpointInput{URL: rcv.URL + "/giftwell", Events: []string{"all"}})
	require.NoError(t, err)
	env.Clock.Advance(time.Second)
	startJobs(t, env, &outbox{})
	recordEvents(t, env, 1, 1)

	var page webhook.DeliveryPage
	require.Eventually(t, func() bool {
		page, err = env.App.Webhooks.Deliveries(ctx, owner, ep.ID, webhook.DeliveryQuery{})
		return err == nil && len(page.Items) == 1 && page.Items[0].State == webhook.StateDelivered
	}, 30*time.Second, 20*time.Millisecond)
	d := page.Items[0]
	require.Equal(t, 3, d.Attempts)
	require.Equal(t, http.StatusNoContent, d.LastStatus)
	require.Empty(t, d.LastError)

	got := rcv.Requests()
	require.Len(t, got, 3)
	last, body := got[2], got[2].Body
	require.NoError(t, webhookverify.Verify(ep.Secret, last.Header.Get(webhook.HeaderSignature), body, env.Clock.Now()))
	require.ErrorIs(t, webhookverify.Verify(ep.Secret, last.Header.Get(webhook.HeaderSignature), append(body, ' '), env.Clock.Now()),
		webhookverify.ErrNoMatch)
	if path := os.Getenv("GIFTWELL_TRANSCRIPT_WEBHOOK"); path != "" {
		var b strings.Builder
		fmt.Fprintf(&b, "POST %s\n", last.Path)
		for _, k := range []string{"Content-Type", "User-Agent", webhook.HeaderEventID, webhook.HeaderSignature} {
			fmt.Fprintf(&b, "%s: %s\n", k, last.Header.Get(k))
		}
		fmt.Fprintf(&b, "\n%s\n\nwebhookverify.Verify: ok\n\ndeliveries: %+v\n", body, page)
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	}
}

// 1,000 events fanned out to 3 endpoints through serve's River client:
// every endpoint gets every event exactly once.
func TestWebhookFanOutLosesAndRepeatsNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	var receivers []*apptest.Receiver
	for range 3 {
		rcv := env.Receiver(t)
		_, err := env.App.Webhooks.Create(ctx, owner, webhook.EndpointInput{URL: rcv.URL + "/", Events: []string{"send.created"}})
		require.NoError(t, err)
		receivers = append(receivers, rcv)
	}
	env.Clock.Advance(time.Second)
	const events = 1000
	recordEvents(t, env, events, 50)
	startJobs(t, env, &outbox{})
	require.Eventually(t, func() bool {
		for _, r := range receivers {
			if len(eventIDs(r)) < events {
				return false
			}
		}
		return true
	}, 120*time.Second, 50*time.Millisecond)
	for i, r := range receivers {
		ids := eventIDs(r)
		require.Len(t, ids, events, "receiver %d", i)
		for id, n := range ids {
			require.Equal(t, 1, n, "receiver %d got %s %d times", i, id, n)
		}
	}
}

// A receiver that takes its time holds at most MaxInFlightPerEndpoint
// workers: another endpoint's deliveries go through meanwhile.
func TestWebhookSlowReceiverDelaysNoOther(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(slow.Close)
	t.Cleanup(func() { close(release) })
	env.AllowWebhookURLs(t, slow.URL+"/")
	fast := env.Receiver(t)
	for _, u := range []string{slow.URL + "/", fast.URL + "/"} {
		_, err := env.App.Webhooks.Create(ctx, owner, webhook.EndpointInput{URL: u, Events: []string{"all"}})
		require.NoError(t, err)
	}
	env.Clock.Advance(time.Second)
	const events = 40
	recordEvents(t, env, events, 40)
	startJobs(t, env, &outbox{})
	require.Eventually(t, func() bool { return len(eventIDs(fast)) == events }, 30*time.Second, 20*time.Millisecond,
		"the fast endpoint gets every event while the slow one holds its slots")
}

// One workspace's hanging endpoints do not delay another's deliveries: with
// workspace A's ten endpoints hanging under 400 deliveries, workspace B's
// next delivery arrives within 5 seconds (webhook.MaxInFlightPerWorkspace
// leaves half of the webhook workers to others).
func TestWebhookHangingWorkspaceDelaysNoOther(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	_, ownerA := env.SignIn(t, env.OwnerEmail)
	wsB := apptest.NewWorkspace(t, env.App, apptest.WorkspaceOptions{})
	_, ownerB := env.SignIn(t, wsB.OwnerEmail)

	release := make(chan struct{})
	hanging := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(hanging.Close)
	t.Cleanup(func() { close(release) })
	env.AllowWebhookURLs(t, hanging.URL+"/")
	for i := range 10 {
		_, err := env.App.Webhooks.Create(ctx, ownerA, webhook.EndpointInput{URL: fmt.Sprintf("%s/a%d", hanging.URL, i), Events: []string{"all"}})
		require.NoError(t, err)
	}
	b := env.Receiver(t)
	_, err := env.App.Webhooks.Create(ctx, ownerB, webhook.EndpointInput{URL: b.URL + "/", Events: []string{"all"}})
	require.NoError(t, err)
	env.Clock.Advance(time.Second)
	startJobs(t, env, &outbox{})

	eventB := func(n int) time.Duration {
		start := time.Now()
		require.NoError(t, pgx.BeginFunc(ctx, env.App.DB, func(tx pgx.Tx) error {
			return env.App.RecordEvent(ctx, tx, core.EventRecord{WorkspaceID: wsB.WorkspaceID, Type: core.EventSendCreated,
				Mode: core.ModeTest, CampaignID: "cmp_b", SendID: fmt.Sprintf("send_b%05d", n)})
		}))
		require.Eventually(t, func() bool { return len(eventIDs(b)) == n }, 30*time.Second, 10*time.Millisecond)
		return time.Since(start)
	}
	quiet := eventB(1)

	recordEvents(t, env, 40, 40) // 400 deliveries to A's hanging endpoints
	time.Sleep(time.Second)      // A's attempts fill its share of the workers
	var busy time.Duration
	for n := 2; n <= 4; n++ {
		busy = max(busy, eventB(n))
	}
	t.Logf("workspace B's delivery: %v with A quiet, at most %v with A's 10 endpoints hanging under 400 deliveries", quiet, busy)
	require.Less(t, busy, 5*time.Second, "another workspace's delivery arrives within 5 s")
}
