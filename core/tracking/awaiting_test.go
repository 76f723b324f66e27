package tracking_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/tracking"
	"github.com/giftwell/giftwell/internal/apptest"
)

// TestAwaitingAddress counts the gifts waiting for their recipient's
// address and those whose link ends soon.
func TestAwaitingAddress(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newGifts(t)
	app := g.env.App
	pb := g.playbook("Confirm", false)
	g.approved(pb, "known") // a sender-supplied address: ready, no link
	confirm := func(n string) string {
		in := person(n)
		in.AddressMode, in.Address, in.City, in.State, in.Zip = gift.AddressConfirm, "", "", "", ""
		res, err := app.Approvals.AddToPlaybook(ctx, g.key, pb, approval.PlaybookPersonAdd{Recipient: in})
		require.NoError(t, err)
		sent, err := app.Approvals.ApproveGift(ctx, g.owner, approval.QueueDecision{CampaignID: pb, RecipientID: res.RecipientID})
		require.NoError(t, err)
		require.Equal(t, gift.SendAwaitingAddress, sent.Status)
		return sent.ID
	}
	confirm("early")
	g.env.Clock.Advance(5 * 24 * time.Hour)
	confirm("late")

	w, err := app.Tracking.AwaitingAddress(ctx, g.owner, 3*24*time.Hour)
	require.NoError(t, err)
	require.Equal(t, tracking.AddressWait{Awaiting: 2}, w)
	g.env.Clock.Advance(8 * 24 * time.Hour) // day 13: early's link ends on day 14, late's on day 19
	w, err = app.Tracking.AwaitingAddress(ctx, g.owner, 3*24*time.Hour)
	require.NoError(t, err)
	require.Equal(t, tracking.AddressWait{Awaiting: 2, ExpiringSoon: 1}, w, fmt.Sprint(w))

	other := apptest.NewWorkspace(t, app, apptest.WorkspaceOptions{})
	_, stranger := g.env.SignIn(t, other.OwnerEmail)
	w, err = app.Tracking.AwaitingAddress(ctx, stranger, 3*24*time.Hour)
	require.NoError(t, err)
	require.Zero(t, w.Awaiting)
}
