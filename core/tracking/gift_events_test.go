package tracking_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/internal/apptest"
)

// TestGiftEvents reads one gift's timeline oldest first, its events only,
// and refuses another workspace's gift; RecentEvents lists the workspace's
// newest events with the recipient's name.
func TestGiftEvents(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newGifts(t)
	app := g.env.App
	pb := g.playbook("Timeline", false)
	a := g.approved(pb, "1")
	b := g.approved(pb, "2")
	for _, m := range []gift.GiftMove{
		{SendID: a, To: gift.SendInProduction},
		{SendID: a, To: gift.SendShipped, Carrier: "UPS", TrackingNumber: "1Z999", TrackingURL: "https://ups.example/1Z999"},
	} {
		_, err := app.Gifts.MoveGift(ctx, m)
		require.NoError(t, err)
	}

	tl, err := app.Tracking.GiftEvents(ctx, g.owner, a)
	require.NoError(t, err)
	require.False(t, tl.More)
	require.Equal(t, []string{
		"send.created " + a, "send.status_changed " + a, "send.order_changed " + a,
		"send.status_changed " + a, "send.order_changed " + a, "send.tracking_changed " + a,
	}, types(tl.Events))
	require.Equal(t, "1Z999", tl.Events[5].Data["trackingNumber"])
	for _, it := range tl.Events {
		require.NotContains(t, raw(t, it), "Secret Street")
		require.NotContains(t, raw(t, it), "secret-1@example.com")
	}

	other := apptest.NewWorkspace(t, app, apptest.WorkspaceOptions{})
	_, stranger := g.env.SignIn(t, other.OwnerEmail)
	_, err = app.Tracking.GiftEvents(ctx, stranger, a)
	require.Equal(t, "id", apptest.RequireCode(t, err, core.CodeNotFound).Fields[0])
	_, err = app.Tracking.GiftEvents(ctx, g.owner, "send_none")
	apptest.RequireCode(t, err, core.CodeNotFound)

	recent, err := app.Tracking.RecentEvents(ctx, g.owner, 3)
	require.NoError(t, err)
	require.Len(t, recent, 3)
	require.Equal(t, tl.Events[5].ID, recent[0].ID, "newest first")
	require.Equal(t, "Person 1", recent[0].RecipientName)
	for _, r := range recent {
		require.NotEqual(t, b, r.SendID, "b's only event is older than a's last three")
	}
	none, err := app.Tracking.RecentEvents(ctx, stranger, 10)
	require.NoError(t, err)
	require.Empty(t, none, "another workspace sees none of them")
	_, err = app.Tracking.RecentEvents(ctx, g.owner, 0)
	apptest.RequireCode(t, err, core.CodeValidation)
}
