package webhook_test

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/webhook"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestEndpointsAreForSignedInManagers(t *testing.T) {
	t.Parallel()
	h := newHooks(t)
	ctx := context.Background()
	hooks := h.env.App.Webhooks
	rcv := h.receiver()

	created := h.endpoint(rcv.URL+"/hook", "send.status_changed", "playbook.person_waiting")
	require.Regexp(t, `^whk_[0-9a-f]{24}$`, created.ID)
	require.Regexp(t, `^[0-9a-f]{64}$`, created.Secret)
	require.Equal(t, []string{"send.status_changed", "playbook.person_waiting"}, created.Events)
	var dump string
	require.NoError(t, h.env.App.DB.QueryRow(ctx, `SELECT string_agg(w::text, '|') FROM webhook_endpoints w`).Scan(&dump))
	require.NotContains(t, dump, created.Secret, "the secret is never stored")

	list, err := hooks.List(ctx, h.key)
	require.NoError(t, err, "an owner's key may list")
	require.Equal(t, []webhook.Endpoint{created.Endpoint}, list)
	raw, err := json.Marshal(list)
	require.NoError(t, err)
	require.NotContains(t, string(raw), "secret")

	_, err = hooks.Create(ctx, h.key, webhook.EndpointInput{URL: rcv.URL, Events: []string{"all"}})
	require.Equal(t, h.env.SiteURL+"/settings/webhooks", apptest.RequireCode(t, err, core.CodeHumanApprovalRequired).URL)
	member := h.env.AddPerson(t, core.RoleMember)
	_, mp := h.env.SignIn(t, member.Email)
	_, err = hooks.Create(ctx, mp, webhook.EndpointInput{URL: rcv.URL, Events: []string{"all"}})
	apptest.RequireCode(t, err, core.CodeTeamManagerRequired)
	memberKey, err := h.env.App.Connect.Authenticate(ctx, member.Key)
	require.NoError(t, err)
	_, err = hooks.List(ctx, memberKey)
	apptest.RequireCode(t, err, core.CodeHumanApprovalRequired)

	for _, tc := range []struct {
		in    webhook.EndpointInput
		field string
	}{
		{webhook.EndpointInput{URL: rcv.URL}, "events"},
		{webhook.EndpointInput{URL: rcv.URL, Events: []string{"send.nope"}}, "events[0]"},
		{webhook.EndpointInput{URL: rcv.URL, Events: []string{"all", "all"}}, "events[1]"},
		{webhook.EndpointInput{URL: rcv.URL, Events: strings.Fields(strings.Repeat("all ", 11))}, "events"},
		{webhook.EndpointInput{Events: []string{"all"}}, "url"},
		{webhook.EndpointInput{URL: "ftp://example.com/x", Events: []string{"all"}}, "url"},
		{webhook.EndpointInput{URL: "https://user:pw@example.com/x", Events: []string{"all"}}, "url"},
		{webhook.EndpointInput{URL: "https://10.0.0.1/hook", Events: []string{"all"}}, "url"},
		{webhook.EndpointInput{URL: "http://169.254.169.254/latest", Events: []string{"all"}}, "url"},
	} {
		_, err := hooks.Create(ctx, h.owner, tc.in)
		require.Equal(t, []string{tc.field}, apptest.RequireCode(t, err, core.CodeValidation).Fields, "%+v", tc.in)
	}

	for range webhook.MaxEndpoints - 1 {
		h.endpoint(rcv.URL, "all")
	}
	_, err = hooks.Create(ctx, h.owner, webhook.EndpointInput{URL: rcv.URL, Events: []string{"all"}})
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)

	removed, err := hooks.Remove(ctx, h.owner, created.ID)
	require.NoError(t, err)
	require.Equal(t, created.Endpoint, removed)
	_, err = hooks.Remove(ctx, h.owner, created.ID)
	apptest.RequireCode(t, err, core.CodeNotFound)
	other := apptest.NewWorkspace(t, h.env.App, apptest.WorkspaceOptions{})
	_, stranger := h.env.SignIn(t, other.OwnerEmail)
	_, err = hooks.Remove(ctx, stranger, list[0].ID)
	apptest.RequireCode(t, err, core.CodeNotFound)
	_, err = hooks.Deliveries(ctx, stranger, list[0].ID, webhook.DeliveryQuery{})
	apptest.RequireCode(t, err, core.CodeNotFound)
}

// A delivery fails, is retried on the 1, 2, 4 ... 64 unit schedule with
// the same body and event ID and a fresh signature each time, and is dead
// after the eighth attempt; a manual retry starts a new cycle that
// succeeds, and a delivered one cannot be retried.
func TestScheduleWalksToDeadThenRetrySucceeds(t *testing.T) {
	t.Parallel()
	h := newHooks(t)
	ctx := context.Background()
	hooks := h.env.App.Webhooks
	rcv := h.receiver(http.StatusInternalServerError)
	ep := h.endpoint(rcv.URL+"/hook", "send.status_changed")
	h.env.Clock.Advance(time.Second)
	h.event(core.EventSendStatusChanged, "send_one")
	h.event(core.EventSendCreated, "send_two") // not subscribed

	pending := h.pending()
	require.Len(t, pending, 1)
	args := pending[0]
	waits := []time.Duration{}
	for attempt := 1; attempt <= webhook.MaxAttempts; attempt++ {
		require.Equal(t, int32(attempt), args.Attempt)
		require.NoError(t, hooks.Attempt(ctx, args))
		page, err := hooks.Deliveries(ctx, h.key, ep.ID, webhook.DeliveryQuery{})
		require.NoError(t, err)
		d := page.Items[0]
		require.Equal(t, attempt, d.Attempts)
		require.Equal(t, 500, d.LastStatus)
		require.Contains(t, d.LastError, "500")
		if attempt == webhook.MaxAttempts {
			require.Equal(t, webhook.StateDead, d.State)
			require.Nil(t, d.NextAt)
			break
		}
		require.Equal(t, webhook.StateRetrying, d.State)
		wait := time.UnixMilli(*d.NextAt).Sub(h.env.Clock.Now())
		waits = append(waits, wait)
		require.NoError(t, hooks.Attempt(ctx, args), "an attempt already made changes nothing")
		h.env.Clock.Advance(wait)
		args = h.pending()[0]
	}
	require.Equal(t, []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute,
		16 * time.Minute, 32 * time.Minute, 64 * time.Minute}, waits)
	require.Empty(t, h.pending())

	got := rcv.Requests()
	require.Len(t, got, webhook.MaxAttempts, "one request per attempt")
	sigs := map[string]bool{}
	for _, r := range got {
		require.Equal(t, got[0].Body, r.Body, "the same body every time")
		require.Equal(t, got[0].Header.Get(webhook.HeaderEventID), r.Header.Get(webhook.HeaderEventID))
		require.Equal(t, "application/json", r.Header.Get("Content-Type"))
		sig := r.Header.Get(webhook.HeaderSignature)
		m := regexp.MustCompile(`^t=(\d+),v1=([0-9a-f]{64})$`).FindStringSubmatch(sig)
		require.NotNil(t, m, sig)
		require.Equal(t, webhook.Sign(ep.Secret, m[1], r.Body), m[2])
		sigs[sig] = true
	}
	require.Len(t, sigs, webhook.MaxAttempts, "a fresh signature on every attempt")
	var body map[string]any
	require.NoError(t, json.Unmarshal(got[0].Body, &body))
	require.Equal(t, "send.status_changed", body["type"])
	require.Equal(t, got[0].Header.Get(webhook.HeaderEventID), body["id"])
	require.NotEmpty(t, body["cursor"], "a feed event carries its cursor")
	for _, k := range []string{"mode", "sendId", "campaignId", "createdAt", "data"} {
		require.Contains(t, body, k)
	}

	// A manual retry: a new cycle, which succeeds.
	page, err := hooks.Deliveries(ctx, h.key, ep.ID, webhook.DeliveryQuery{})
	require.NoError(t, err)
	dead := page.Items[0]
	rcv.Answer(http.StatusNoContent)
	retried, err := hooks.Retry(ctx, h.key, ep.ID, dead.ID, "")
	require.NoError(t, err)
	require.Equal(t, webhook.StatePending, retried.State)
	require.NoError(t, hooks.Attempt(ctx, h.pending()[0]))
	page, err = hooks.Deliveries(ctx, h.key, ep.ID, webhook.DeliveryQuery{})
	require.NoError(t, err)
	require.Equal(t, webhook.StateDelivered, page.Items[0].State)
	require.Equal(t, webhook.MaxAttempts+1, page.Items[0].Attempts)
	require.Equal(t, got[0].Body, rcv.Requests()[webhook.MaxAttempts].Body, "a retry keeps the body")
	_, err = hooks.Retry(ctx, h.key, ep.ID, dead.ID, "")
	require.Equal(t, []string{"deliveryId"}, apptest.RequireCode(t, err, core.CodeInvalidRequestState).Fields)
	_, err = hooks.Retry(ctx, h.key, ep.ID, dead.ID, webhook.SourcePlaybook)
	apptest.RequireCode(t, err, core.CodeNotFound)
	_, err = hooks.Retry(ctx, h.key, ep.ID, dead.ID, "books")
	require.Equal(t, []string{"source"}, apptest.RequireCode(t, err, core.CodeValidation).Fields)
}

// Redirects are not followed and count as failures; removing the endpoint
// cancels what still waits; only events after an endpoint exists are sent;
// playbook.person_waiting goes under source playbook without a cursor.
func TestRedirectsRemovalAndSources(t *testing.T) {
	t.Parallel()
	h := newHooks(t)
	ctx := context.Background()
	hooks := h.env.App.Webhooks
	h.event(core.EventSendCreated, "send_before") // before any endpoint: never sent
	h.env.Clock.Advance(time.Second)
	rcv := h.receiver(http.StatusFound)
	ep := h.endpoint(rcv.URL+"/hook", "all")
	h.env.Clock.Advance(time.Second)
	h.event(core.EventSendCreated, "send_after")
	h.event(core.EventPlaybookPersonWaiting, "")

	pending := h.pending()
	require.Len(t, pending, 2)
	for _, a := range pending {
		require.NoError(t, hooks.Attempt(ctx, a))
	}
	gifts, err := hooks.Deliveries(ctx, h.key, ep.ID, webhook.DeliveryQuery{Source: webhook.SourceGift})
	require.NoError(t, err)
	require.Len(t, gifts.Items, 1)
	require.Equal(t, webhook.StateRetrying, gifts.Items[0].State)
	require.Equal(t, http.StatusFound, gifts.Items[0].LastStatus)
	require.Contains(t, gifts.Items[0].LastError, "redirect")
	playbook, err := hooks.Deliveries(ctx, h.key, ep.ID, webhook.DeliveryQuery{Source: webhook.SourcePlaybook})
	require.NoError(t, err)
	require.Len(t, playbook.Items, 1)
	require.Equal(t, "playbook.person_waiting", playbook.Items[0].Type)
	for _, r := range rcv.Requests() {
		var body map[string]any
		require.NoError(t, json.Unmarshal(r.Body, &body))
		if body["type"] == "playbook.person_waiting" {
			require.NotContains(t, body, "cursor")
		}
	}

	_, err = hooks.Remove(ctx, h.owner, ep.ID)
	require.NoError(t, err)
	gifts, err = hooks.Deliveries(ctx, h.key, ep.ID, webhook.DeliveryQuery{})
	require.NoError(t, err, "a removed endpoint's deliveries stay readable")
	require.Equal(t, webhook.StateCancelled, gifts.Items[0].State)
	require.Nil(t, gifts.Items[0].NextAt)
	require.Empty(t, h.pending())
	before := len(rcv.Requests())
	for _, a := range pending {
		require.NoError(t, hooks.Attempt(ctx, webhook.DeliverArgs{DeliveryID: a.DeliveryID, Cycle: 1, Attempt: 2}))
	}
	require.Len(t, rcv.Requests(), before, "nothing is sent after removal")

	for field, q := range map[string]webhook.DeliveryQuery{
		"limit":  {Limit: 101},
		"before": {Before: "x"},
		"source": {Source: "all"},
	} {
		_, err := hooks.Deliveries(ctx, h.key, ep.ID, q)
		require.Equal(t, []string{field}, apptest.RequireCode(t, err, core.CodeValidation).Fields)
	}
}

// The deliveries list pages newest first with nextBefore.
func TestDeliveriesPage(t *testing.T) {
	t.Parallel()
	h := newHooks(t)
	ctx := context.Background()
	rcv := h.receiver()
	ep := h.endpoint(rcv.URL, "send.created")
	h.env.Clock.Advance(time.Second)
	for range 5 {
		h.event(core.EventSendCreated, "send_x")
	}
	var seqs []int64
	before := ""
	for pages := 0; ; pages++ {
		require.Less(t, pages, 5)
		page, err := h.env.App.Webhooks.Deliveries(ctx, h.key, ep.ID, webhook.DeliveryQuery{Limit: 2, Before: before})
		require.NoError(t, err)
		for _, d := range page.Items {
			seqs = append(seqs, d.EventSeq)
			require.Equal(t, webhook.StatePending, d.State)
			require.NotNil(t, d.NextAt)
		}
		if page.NextBefore == nil {
			break
		}
		before = *page.NextBefore
	}
	require.Len(t, seqs, 5)
	require.IsDecreasing(t, seqs)
}
