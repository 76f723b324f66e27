package tracking_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/tracking"
	"github.com/giftwell/giftwell/internal/apptest"
)

// TestTrackingItems: the spec's item fields and nothing personal, filters,
// pages until nextCursor is null, cursors bound to their filters and
// workspace, and NOT_FOUND outside the workspace.
func TestTrackingItems(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newGifts(t)
	app := g.env.App
	manual, other := g.playbook("Manual", false), g.playbook("Other", false)
	a := g.approved(manual, "1")
	g.env.Clock.Advance(time.Second)
	b := g.approved(manual, "2")
	g.env.Clock.Advance(time.Second)
	c := g.approved(other, "3")
	_, err := app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: b, To: gift.SendInProduction, Reason: "test"})
	require.NoError(t, err)
	_, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: b, To: gift.SendShipped, Reason: "test",
		Carrier: "UPS", TrackingNumber: "1Z999", TrackingURL: "https://ups.example/1Z999"})
	require.NoError(t, err)

	page, err := app.Tracking.Items(ctx, g.key, tracking.ItemsInput{})
	require.NoError(t, err)
	require.Nil(t, page.NextCursor)
	require.Equal(t, []string{c, b, a}, sendIDs(page.Items))
	shipped := page.Items[1]
	require.Equal(t, gift.SendShipped, shipped.Status)
	require.Equal(t, gift.OrderShipped, shipped.OrderState)
	require.Equal(t, tracking.OutcomeNone, shipped.Outcome)
	require.Equal(t, core.ModeTest, shipped.Mode)
	require.Equal(t, "UPS", shipped.Carrier)
	require.Equal(t, "1Z999", shipped.TrackingNumber)
	require.Equal(t, "https://ups.example/1Z999", shipped.TrackingURL)
	require.Equal(t, "ext-2", shipped.Attribution.ExternalID)
	require.Equal(t, int64(9_000), shipped.TotalCents)
	require.Equal(t, manual, shipped.CampaignID)
	require.Equal(t, gift.SendReady, page.Items[0].Status)
	require.Equal(t, gift.OrderNone, page.Items[0].OrderState)
	// Exactly the spec's fields, nothing personal.
	var fields map[string]any
	require.NoError(t, jsonUnmarshal(raw(t, shipped), &fields))
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	require.ElementsMatch(t, []string{"sendId", "campaignId", "attribution", "status", "outcome", "orderState", "mode", "createdAt",
		"totalCents", "carrier", "trackingNumber", "trackingUrl"}, keys)
	text := raw(t, page)
	for _, secret := range []string{"secret", "Secret Street", "Springfield", "62701", "private note", "Person "} {
		require.NotContains(t, text, secret)
	}

	// Filters.
	list := func(f tracking.ItemFilter) []string {
		t.Helper()
		p, err := app.Tracking.Items(ctx, g.key, tracking.ItemsInput{ItemFilter: f})
		require.NoError(t, err)
		return sendIDs(p.Items)
	}
	require.Equal(t, []string{b, a}, list(tracking.ItemFilter{CampaignID: manual}))
	require.Equal(t, []string{b}, list(tracking.ItemFilter{Status: "shipped"}))
	require.Equal(t, []string{c}, list(tracking.ItemFilter{ExternalID: "ext-3"}))
	require.Equal(t, []string{a}, list(tracking.ItemFilter{SendID: a}))
	require.Empty(t, list(tracking.ItemFilter{SendID: a, Status: "shipped"}))

	// Pages of one until nextCursor is null.
	var paged []string
	in := tracking.ItemsInput{Limit: 1}
	for range 3 {
		p, err := app.Tracking.Items(ctx, g.key, in)
		require.NoError(t, err)
		paged = append(paged, sendIDs(p.Items)...)
		if p.NextCursor == nil {
			break
		}
		in.Cursor = *p.NextCursor
	}
	require.Equal(t, []string{c, b, a}, paged)
	first, err := app.Tracking.Items(ctx, g.key, tracking.ItemsInput{Limit: 1})
	require.NoError(t, err)
	require.NotNil(t, first.NextCursor)
	// The cursor is bound to its filters and workspace.
	_, err = app.Tracking.Items(ctx, g.key, tracking.ItemsInput{Limit: 1, Cursor: *first.NextCursor, ItemFilter: tracking.ItemFilter{CampaignID: manual}})
	require.Equal(t, []string{"cursor"}, apptest.RequireCode(t, err, core.CodeValidation).Fields)
	ws := apptest.NewWorkspace(t, app, apptest.WorkspaceOptions{})
	theirs, err := app.Connect.Authenticate(ctx, ws.OwnerKey)
	require.NoError(t, err)
	_, err = app.Tracking.Items(ctx, theirs, tracking.ItemsInput{Cursor: *first.NextCursor, Limit: 1})
	apptest.RequireCode(t, err, core.CodeValidation)
	mine, err := app.Tracking.Items(ctx, theirs, tracking.ItemsInput{})
	require.NoError(t, err)
	require.Empty(t, mine.Items)

	// Refusals name their field.
	for field, in := range map[string]tracking.ItemsInput{
		"limit":  {Limit: 101},
		"status": {ItemFilter: tracking.ItemFilter{Status: "approved"}},
		"cursor": {Cursor: "nope"},
	} {
		_, err := app.Tracking.Items(ctx, g.key, in)
		require.Equal(t, []string{field}, apptest.RequireCode(t, err, core.CodeValidation).Fields, field)
	}
	_, err = app.Tracking.Items(ctx, theirs, tracking.ItemsInput{ItemFilter: tracking.ItemFilter{CampaignID: manual}})
	require.Equal(t, []string{"campaignId"}, apptest.RequireCode(t, err, core.CodeNotFound).Fields)
	_, err = app.Tracking.CampaignItems(ctx, theirs, manual, tracking.ItemsInput{})
	require.Equal(t, []string{"id"}, apptest.RequireCode(t, err, core.CodeNotFound).Fields)
	_, err = app.Tracking.Item(ctx, theirs, b)
	require.Equal(t, []string{"id"}, apptest.RequireCode(t, err, core.CodeNotFound).Fields)
	one, err := app.Tracking.CampaignItems(ctx, g.key, other, tracking.ItemsInput{})
	require.NoError(t, err)
	require.Equal(t, []string{c}, sendIDs(one.Items))
	require.Equal(t, shipped, g.item(b))
}

// TestCampaignResults: cancelled gifts count apart, meetings divide the
// committed cost, and declined gifts commit nothing.
func TestCampaignResults(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newGifts(t)
	app := g.env.App
	c := g.playbook("Results", false)

	empty, err := app.Tracking.CampaignResults(ctx, g.key, c)
	require.NoError(t, err)
	require.Equal(t, tracking.Results{CampaignID: c, OutcomeSource: "team_reported", MeetingDenominator: "meeting_booked_or_held"}, empty)

	ids := make([]string, 6)
	for i := range ids {
		ids[i] = g.approved(c, string(rune('1'+i)))
	}
	move := func(id string, to ...gift.SendStatus) {
		for _, s := range to {
			_, err := app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: id, To: s, Reason: "test"})
			require.NoError(t, err)
		}
	}
	out := func(id string, o tracking.Outcome) { g.outcome(tracking.OutcomeInput{SendID: id, Outcome: o}) }
	move(ids[0], gift.SendInProduction, gift.SendShipped, gift.SendDelivered)
	move(ids[1], gift.SendInProduction, gift.SendShipped, gift.SendDelivered)
	out(ids[0], tracking.OutcomeMeetingHeld)
	out(ids[1], tracking.OutcomeReplied)
	out(ids[2], tracking.OutcomeMeetingBooked)
	// A cancelled gift's earlier meeting counts nowhere.
	out(ids[3], tracking.OutcomeMeetingBooked)
	move(ids[3], gift.SendCancelled)
	// A declined balance-paid gift counts, is credited back (refunded) and
	// commits nothing.
	move(ids[4], gift.SendDeclined)

	res, err := app.Tracking.CampaignResults(ctx, g.key, c)
	require.NoError(t, err)
	require.Equal(t, tracking.Results{
		CampaignID: c, TotalSends: 5, Cancelled: 1, Sent: 4, Delivered: 2, Declined: 1, Refunded: 1, Replied: 3, Meetings: 2, MeetingsHeld: 1,
		CommittedCents: 4 * 9_000, RefundedCents: 9_000, CostPerMeetingCents: apptest.Ptr(int64(18_000)),
		OutcomeSource: "team_reported", MeetingDenominator: "meeting_booked_or_held",
	}, res)
	// One more meeting: 36000 / 3.
	out(ids[5], tracking.OutcomeMeetingBooked)
	res, err = app.Tracking.CampaignResults(ctx, g.key, c)
	require.NoError(t, err)
	require.Equal(t, int64(12_000), *res.CostPerMeetingCents)

	ws := apptest.NewWorkspace(t, app, apptest.WorkspaceOptions{})
	theirs, err := app.Connect.Authenticate(ctx, ws.OwnerKey)
	require.NoError(t, err)
	_, err = app.Tracking.CampaignResults(ctx, theirs, c)
	require.Equal(t, []string{"id"}, apptest.RequireCode(t, err, core.CodeNotFound).Fields)
}

// sendIDs are the items' gift IDs.
func sendIDs(items []tracking.Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.SendID
	}
	return out
}
