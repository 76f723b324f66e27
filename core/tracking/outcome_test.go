package tracking_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/tracking"
	"github.com/giftwell/giftwell/internal/apptest"
)

// outcome records in for the key and must succeed.
func (g *gifts) outcome(in tracking.OutcomeInput) tracking.OutcomeReport {
	g.t.Helper()
	r, err := g.env.App.Tracking.RecordOutcome(context.Background(), g.key, in)
	require.NoError(g.t, err)
	return r
}

// item is gift sendID's tracking item.
func (g *gifts) item(sendID string) tracking.Item {
	g.t.Helper()
	it, err := g.env.App.Tracking.Item(context.Background(), g.key, sendID)
	require.NoError(g.t, err)
	return it
}

// outcomeEvents counts gift sendID's send.outcome_reported events.
func (g *gifts) outcomeEvents(sendID string) []core.Event {
	g.t.Helper()
	var out []core.Event
	for _, e := range g.env.GiftEvents(g.t, sendID) {
		if e.Type == core.EventSendOutcomeReported {
			out = append(out, e)
		}
	}
	return out
}

// TestRecordOutcome: the current outcome follows the latest occurredAt,
// externalEventId deduplicates per source, retries with other content
// conflict, every refusal names its field, and each new report records
// one small send.outcome_reported.
func TestRecordOutcome(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newGifts(t)
	app := g.env.App
	c := g.playbook("Outcomes", false)
	a := g.approved(c, "1")
	require.Equal(t, tracking.OutcomeNone, g.item(a).Outcome)

	// Now (the App clock) by default.
	first := g.outcome(tracking.OutcomeInput{SendID: a, Outcome: tracking.OutcomeReplied})
	require.Equal(t, tracking.OutcomeReport{SendID: a, Outcome: tracking.OutcomeReplied, OccurredAt: apptest.Epoch, RecordedAt: apptest.Epoch}, first)
	require.Equal(t, tracking.OutcomeReplied, g.item(a).Outcome)

	// A report that occurred earlier is kept but does not become current.
	earlier := apptest.Epoch.Add(-time.Hour)
	booked := tracking.OutcomeInput{SendID: a, Outcome: tracking.OutcomeMeetingBooked, ExternalEventID: "crm-1", Source: "hubspot", OccurredAt: &earlier}
	r := g.outcome(booked)
	require.Equal(t, earlier, r.OccurredAt)
	require.Equal(t, tracking.OutcomeReplied, g.item(a).Outcome, "the latest occurredAt wins")
	// A later one does; so does a correction back to none.
	later := apptest.Epoch.Add(5 * time.Minute) // the most ahead it may be
	g.outcome(tracking.OutcomeInput{SendID: a, Outcome: tracking.OutcomeMeetingHeld, OccurredAt: &later})
	require.Equal(t, tracking.OutcomeMeetingHeld, g.item(a).Outcome)
	g.env.Clock.Advance(time.Hour)
	g.outcome(tracking.OutcomeInput{SendID: a, Outcome: tracking.OutcomeNone})
	require.Equal(t, tracking.OutcomeNone, g.item(a).Outcome)
	g.outcome(tracking.OutcomeInput{SendID: a, Outcome: tracking.OutcomeMeetingBooked})
	require.Equal(t, tracking.OutcomeMeetingBooked, g.item(a).Outcome)
	events := g.outcomeEvents(a)
	require.Len(t, events, 5)
	require.JSONEq(t, `{"outcome":"meeting_booked","source":"hubspot","occurredAt":"2026-03-02T08:00:00Z"}`, string(events[1].Data))
	for _, e := range events {
		require.Equal(t, c, e.CampaignID)
		require.Equal(t, core.ModeTest, e.Mode)
	}

	// The same report again returns the first one and records nothing,
	// with or without its occurredAt.
	again := g.outcome(booked)
	require.Equal(t, r, again)
	noTime := booked
	noTime.OccurredAt = nil
	require.Equal(t, r, g.outcome(noTime))
	require.Len(t, g.outcomeEvents(a), 5)
	// Changed content conflicts, naming externalEventId.
	b := g.approved(c, "2")
	for _, changed := range []tracking.OutcomeInput{
		{SendID: a, Outcome: tracking.OutcomeMeetingHeld, ExternalEventID: "crm-1", Source: "hubspot"},
		{SendID: a, Outcome: tracking.OutcomeMeetingBooked, ExternalEventID: "crm-1", Source: "hubspot", OccurredAt: &later},
		{SendID: b, Outcome: tracking.OutcomeMeetingBooked, ExternalEventID: "crm-1", Source: "hubspot"},
	} {
		_, err := app.Tracking.RecordOutcome(ctx, g.key, changed)
		e := apptest.RequireCode(t, err, core.CodeIdempotencyConflict)
		require.Equal(t, []string{"externalEventId"}, e.Fields)
	}
	// The same externalEventId from another source is another report.
	other := g.outcome(tracking.OutcomeInput{SendID: b, Outcome: tracking.OutcomeReplied, ExternalEventID: "crm-1", Source: "salesforce"})
	require.Equal(t, "salesforce", other.Source)
	require.Equal(t, tracking.OutcomeReplied, g.item(b).Outcome)

	// Refusals name their field.
	ahead := g.env.Clock.Now().Add(5*time.Minute + time.Second)
	for field, in := range map[string]tracking.OutcomeInput{
		"outcome":         {SendID: a, Outcome: "won"},
		"source":          {SendID: a, Outcome: tracking.OutcomeReplied, Source: strings.Repeat("s", tracking.MaxOutcomeSourceLength+1)},
		"externalEventId": {SendID: a, Outcome: tracking.OutcomeReplied, ExternalEventID: strings.Repeat("e", tracking.MaxExternalEventIDLength+1)},
		"occurredAt":      {SendID: a, Outcome: tracking.OutcomeReplied, OccurredAt: &ahead},
	} {
		_, err := app.Tracking.RecordOutcome(ctx, g.key, in)
		e := apptest.RequireCode(t, err, core.CodeValidation)
		require.Equal(t, []string{field}, e.Fields, field)
	}
	_, err := app.Tracking.RecordOutcome(ctx, g.key, tracking.OutcomeInput{SendID: "send_nope", Outcome: tracking.OutcomeReplied})
	require.Equal(t, []string{"id"}, apptest.RequireCode(t, err, core.CodeNotFound).Fields)

	// Another workspace's gift is NOT_FOUND, and its reports are its own.
	ws := apptest.NewWorkspace(t, app, apptest.WorkspaceOptions{})
	theirs, err := app.Connect.Authenticate(ctx, ws.OwnerKey)
	require.NoError(t, err)
	_, err = app.Tracking.RecordOutcome(ctx, theirs, tracking.OutcomeInput{SendID: a, Outcome: tracking.OutcomeReplied})
	apptest.RequireCode(t, err, core.CodeNotFound)
	_, err = app.Tracking.Item(ctx, theirs, a)
	apptest.RequireCode(t, err, core.CodeNotFound)

	// A cancelled gift takes no new report; a retry of an earlier one
	// still answers with it.
	_, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: b, To: gift.SendCancelled, Reason: "test"})
	require.NoError(t, err)
	_, err = app.Tracking.RecordOutcome(ctx, g.key, tracking.OutcomeInput{SendID: b, Outcome: tracking.OutcomeMeetingBooked})
	require.Equal(t, []string{"id"}, apptest.RequireCode(t, err, core.CodeInvalidRequestState).Fields)
	require.Equal(t, other, g.outcome(tracking.OutcomeInput{SendID: b, Outcome: tracking.OutcomeReplied, ExternalEventID: "crm-1", Source: "salesforce"}))

	// Any member's key may record; a connection may not.
	member := g.env.AddPerson(t, core.RoleMember)
	asMember, err := app.Connect.Authenticate(ctx, member.Key)
	require.NoError(t, err)
	_, err = app.Tracking.RecordOutcome(ctx, asMember, tracking.OutcomeInput{SendID: a, Outcome: tracking.OutcomeReplied})
	require.NoError(t, err)
	conn := g.key
	conn.Via, conn.Scopes = core.ViaConnection, core.AllScopes
	_, err = app.Tracking.RecordOutcome(ctx, conn, tracking.OutcomeInput{SendID: a, Outcome: tracking.OutcomeReplied})
	apptest.RequireCode(t, err, core.CodeHumanApprovalRequired)
}

// The same externalEventId sent eight times at once records one report and
// one event.
func TestRecordOutcomeConcurrent(t *testing.T) {
	t.Parallel()
	g := newGifts(t)
	a := g.approved(g.playbook("Race", false), "1")
	in := tracking.OutcomeInput{SendID: a, Outcome: tracking.OutcomeMeetingBooked, ExternalEventID: "cal-42", Source: "calendar"}
	var wg sync.WaitGroup
	reports := make([]tracking.OutcomeReport, 8)
	errs := make([]error, 8)
	for i := range 8 {
		wg.Go(func() { reports[i], errs[i] = g.env.App.Tracking.RecordOutcome(context.Background(), g.key, in) })
	}
	wg.Wait()
	for i := range 8 {
		require.NoError(t, errs[i])
		require.Equal(t, reports[0], reports[i])
	}
	require.Len(t, g.outcomeEvents(a), 1)
	require.Equal(t, tracking.OutcomeMeetingBooked, g.item(a).Outcome)
}
