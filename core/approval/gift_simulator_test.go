package approval_test

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/internal/apptest"
)

// simulationKind is the simulator's job kind.
var simulationKind = gift.SimulateFulfilmentArgs{}.Kind()

// simulationJobs are the simulator's unfinished jobs, as their args.
func simulationJobs(t *testing.T, w *playbooks) []gift.SimulateFulfilmentArgs {
	t.Helper()
	var out []gift.SimulateFulfilmentArgs
	for _, j := range apptest.Jobs(t, w.env.App, simulationKind) {
		var a gift.SimulateFulfilmentArgs
		require.NoError(t, json.Unmarshal(j.EncodedArgs, &a))
		out = append(out, a)
	}
	return out
}

// workSimulation works the simulator's waiting jobs, as River would, and
// requires that each completed.
func workSimulation(t *testing.T, w *playbooks) int {
	t.Helper()
	jobs := apptest.WorkJobs(t, w.env.App, &gift.SimulateFulfilmentWorker{Gifts: w.env.App.Gifts})
	for _, j := range jobs {
		require.Equal(t, rivertype.JobStateCompleted, j.State, "errors: %v", j.Errors)
	}
	return len(jobs)
}

// knownTestGift is a test gift, ready, for a person with a known address,
// auto-approved on playbook c.
func knownTestGift(t *testing.T, w *playbooks, c campaign.Campaign, n string) gift.Gift {
	t.Helper()
	res, err := w.env.App.Approvals.AddToPlaybook(context.Background(), w.key, c.ID, approval.PlaybookPersonAdd{Recipient: knownPerson(n)})
	require.NoError(t, err)
	require.Equal(t, campaign.ApprovalAutoApproved, res.Approval.State)
	g, err := w.env.App.Gifts.Get(context.Background(), w.key, res.Approval.SendID)
	require.NoError(t, err)
	require.Equal(t, core.ModeTest, g.Mode)
	require.Equal(t, gift.SendReady, g.Status)
	return g
}

// A test gift created ready is walked to delivered over about five
// minutes, one River job a step, each due after the last, with a fake
// carrier and tracking number and the events a live gift would record.
func TestFulfilmentSimulatorWalksATestGift(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 100_000, 10_000)
	w.env.TopUp(t, w.owner, 30_000)
	g := knownTestGift(t, w, c, "1")

	// An awaiting_address gift has no step.
	confirm := w.add(c.ID, "2").Approval.SendID
	require.Equal(t, []gift.SimulateFulfilmentArgs{{SendID: g.ID, Step: gift.SendInProduction}}, simulationJobs(t, w))

	for _, step := range []struct {
		to    gift.SendStatus
		after time.Duration
	}{
		{gift.SendInProduction, time.Minute},
		{gift.SendShipped, 2 * time.Minute},
		{gift.SendDelivered, 2 * time.Minute},
	} {
		jobs := apptest.Jobs(t, app, simulationKind)
		require.Len(t, jobs, 1, "one step at a time")
		require.Equal(t, rivertype.JobStateScheduled, jobs[0].State)
		require.True(t, jobs[0].ScheduledAt.Equal(w.env.Clock.Now().Add(step.after)),
			"the %s step is due %s after the last: %s", step.to, step.after, jobs[0].ScheduledAt)
		w.env.Clock.Advance(step.after)
		require.Equal(t, 1, workSimulation(t, w))
		got, err := app.Gifts.Get(ctx, w.key, g.ID)
		require.NoError(t, err)
		require.Equal(t, step.to, got.Status)
		require.True(t, got.UpdatedAt.Equal(w.env.Clock.Now()))
	}
	require.Empty(t, simulationJobs(t, w), "delivered is an end: nothing more is scheduled")

	got, err := app.Gifts.Get(ctx, w.key, g.ID)
	require.NoError(t, err)
	require.Equal(t, gift.OrderDelivered, got.OrderState)
	require.Equal(t, gift.SimulatedCarrier, got.Carrier)
	require.Regexp(t, regexp.MustCompile(`^TEST[0-9]{12}$`), got.TrackingNumber)
	require.Empty(t, got.TrackingURL, "no real carrier's page")
	reason := "test mode: simulated fulfilment"
	require.Equal(t, []map[string]any{
		{"from": "ready", "to": "in_production", "reason": reason},
		{"from": "in_production", "to": "shipped", "reason": reason},
		{"from": "shipped", "to": "delivered", "reason": reason},
	}, eventData(t, w, g.ID, core.EventSendStatusChanged))
	require.Equal(t, []map[string]any{
		{"from": "none", "to": "placed"}, {"from": "placed", "to": "shipped"}, {"from": "shipped", "to": "delivered"},
	}, eventData(t, w, g.ID, core.EventSendOrderChanged))
	require.Equal(t, []map[string]any{{"carrier": gift.SimulatedCarrier, "trackingNumber": got.TrackingNumber}},
		eventData(t, w, g.ID, core.EventSendTrackingChanged))
	require.Equal(t, 0, credits(t, w, g.ID), "a delivered gift keeps its cost")

	// A step run again does nothing.
	for _, step := range []gift.SendStatus{gift.SendInProduction, gift.SendShipped, gift.SendDelivered} {
		moved, err := app.Gifts.SimulateFulfilment(ctx, g.ID, step)
		require.NoError(t, err)
		require.False(t, moved, step)
	}
	require.Len(t, eventData(t, w, g.ID, core.EventSendStatusChanged), 3)

	// The awaiting_address gift was left alone; once its address is known
	// (moved to ready) its life starts.
	left, err := app.Gifts.Get(ctx, w.key, confirm)
	require.NoError(t, err)
	require.Equal(t, gift.SendAwaitingAddress, left.Status)
	_, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: confirm, To: gift.SendReady})
	require.NoError(t, err)
	require.Equal(t, []gift.SimulateFulfilmentArgs{{SendID: confirm, Step: gift.SendInProduction}}, simulationJobs(t, w))
	moved, err := app.Gifts.SimulateFulfilment(ctx, "send_none", gift.SendInProduction)
	require.NoError(t, err)
	require.False(t, moved, "an unknown gift")
}

// Live gifts are never simulated.
func TestFulfilmentSimulatorLeavesLiveGiftsAlone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	liveKey := w.key
	liveKey.Mode = core.ModeLive
	c := w.playbook("gourmet-snack-crate", 100_000, 10_000)
	require.NoError(t, app.Approvals.AdjustForTest(ctx, w.env.WorkspaceID, core.ModeLive, 30_000))
	res, err := app.Approvals.AddToPlaybook(ctx, liveKey, c.ID, approval.PlaybookPersonAdd{Recipient: knownPerson("1")})
	require.NoError(t, err)
	require.Equal(t, campaign.ApprovalAutoApproved, res.Approval.State)
	g, err := app.Gifts.Get(ctx, liveKey, res.Approval.SendID)
	require.NoError(t, err)
	require.Equal(t, []any{core.ModeLive, gift.SendReady}, []any{g.Mode, g.Status})
	require.Empty(t, simulationJobs(t, w), "a live gift gets no step")

	// Not even a step queued by hand moves it, nor a staff move schedules one.
	moved, err := app.Gifts.SimulateFulfilment(ctx, g.ID, gift.SendInProduction)
	require.NoError(t, err)
	require.False(t, moved)
	_, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: g.ID, To: gift.SendInProduction})
	require.NoError(t, err)
	require.Empty(t, simulationJobs(t, w))
	g, err = app.Gifts.Get(ctx, liveKey, g.ID)
	require.NoError(t, err)
	require.Equal(t, gift.SendInProduction, g.Status)
	require.Len(t, eventData(t, w, g.ID, core.EventSendStatusChanged), 1)
}

// A gift cancelled before its step is left alone, and a person moving a
// test gift ahead (the staff command) makes the pending step a no-op; the
// simulator carries on from where the person left it.
func TestFulfilmentSimulatorYieldsToPeople(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 100_000, 10_000)
	w.env.TopUp(t, w.owner, 30_000)

	cancelled := knownTestGift(t, w, c, "1")
	_, err := app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: cancelled.ID, To: gift.SendCancelled, Reason: "customer asked"})
	require.NoError(t, err)
	require.Equal(t, 1, workSimulation(t, w))
	g, err := app.Gifts.Get(ctx, w.key, cancelled.ID)
	require.NoError(t, err)
	require.Equal(t, gift.SendCancelled, g.Status)
	require.Equal(t, []map[string]any{{"from": "ready", "to": "cancelled", "reason": "customer asked"}},
		eventData(t, w, cancelled.ID, core.EventSendStatusChanged))
	require.Empty(t, simulationJobs(t, w), "a cancelled gift schedules nothing")
	require.Equal(t, 1, credits(t, w, cancelled.ID))

	ahead := knownTestGift(t, w, c, "2")
	g, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: ahead.ID, To: gift.SendInProduction, Reason: "order placed"})
	require.NoError(t, err)
	g, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: ahead.ID, To: gift.SendShipped,
		Carrier: "UPS", TrackingNumber: "1Z999", TrackingURL: "https://ups.example/1Z999"})
	require.NoError(t, err)
	require.Equal(t, gift.SendShipped, g.Status)
	require.Equal(t, []gift.SimulateFulfilmentArgs{
		{SendID: ahead.ID, Step: gift.SendInProduction},
		{SendID: ahead.ID, Step: gift.SendShipped},
		{SendID: ahead.ID, Step: gift.SendDelivered},
	}, simulationJobs(t, w), "each status the person moved it to scheduled its next step")
	for _, step := range []gift.SendStatus{gift.SendInProduction, gift.SendShipped} {
		moved, err := app.Gifts.SimulateFulfilment(ctx, ahead.ID, step)
		require.NoError(t, err)
		require.False(t, moved, "the %s step finds the gift past it", step)
	}
	require.Equal(t, 3, workSimulation(t, w))
	g, err = app.Gifts.Get(ctx, w.key, ahead.ID)
	require.NoError(t, err)
	require.Equal(t, gift.SendDelivered, g.Status)
	require.Equal(t, []string{"UPS", "1Z999", "https://ups.example/1Z999"}, []string{g.Carrier, g.TrackingNumber, g.TrackingURL},
		"the person's tracking stays")
	require.Equal(t, []map[string]any{
		{"from": "ready", "to": "in_production", "reason": "order placed"},
		{"from": "in_production", "to": "shipped", "reason": ""},
		{"from": "shipped", "to": "delivered", "reason": "test mode: simulated fulfilment"},
	}, eventData(t, w, ahead.ID, core.EventSendStatusChanged))
	require.Len(t, eventData(t, w, ahead.ID, core.EventSendTrackingChanged), 1)
	require.Empty(t, simulationJobs(t, w))
}

// With the simulator off nothing is scheduled, and a step already queued
// does nothing.
func TestFulfilmentSimulatorOff(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 100_000, 10_000)
	w.env.TopUp(t, w.owner, 30_000)
	queued := knownTestGift(t, w, c, "1")
	require.Len(t, simulationJobs(t, w), 1)

	app.Gifts.TestFulfilment = false
	off := knownTestGift(t, w, c, "2")
	_, err := app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: off.ID, To: gift.SendInProduction})
	require.NoError(t, err)
	require.Equal(t, []gift.SimulateFulfilmentArgs{{SendID: queued.ID, Step: gift.SendInProduction}}, simulationJobs(t, w),
		"neither a new gift nor a move schedules a step")
	require.Equal(t, 1, workSimulation(t, w))
	g, err := app.Gifts.Get(ctx, w.key, queued.ID)
	require.NoError(t, err)
	require.Equal(t, gift.SendReady, g.Status, "the queued step did nothing")
	require.Empty(t, eventData(t, w, queued.ID, core.EventSendStatusChanged))
	require.Empty(t, simulationJobs(t, w))
}
