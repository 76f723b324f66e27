package approval_test

import (
	"context"
	"testing"

	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/internal/apptest"
)

// A gift whose portrait is not approved stays out of production: the
// staff move is refused naming portrait and the test-mode simulator skips
// it; once the portrait is approved, both move it.
func TestPortraitBlocksProductionUntilApproved(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newQueueEnv(t)
	e.fund(core.ModeTest, 1_000_000)
	pb := e.playbook("custom-portrait-illustration", campaign.CampaignInput{})
	person := func(n string) campaign.RecipientInput {
		in := queued(n)
		in.AddressMode, in.Address, in.City, in.State, in.Zip = gift.AddressKnown, "1 Main St", "Austin", "TX", "78701"
		in.Photo = &campaign.RecipientPhoto{Source: campaign.PhotoLinkedIn, ProfileURL: "https://www.linkedin.com/in/" + n}
		return in
	}
	ids := e.add(pb.ID, person("ana"), person("bo"))
	var gifts []gift.Gift
	for _, id := range ids {
		g, err := e.env.App.Approvals.ApproveGift(ctx, e.owner, approval.QueueDecision{CampaignID: pb.ID, RecipientID: id})
		require.NoError(t, err)
		require.Equal(t, gift.SendReady, g.Status)
		require.Equal(t, artwork.PortraitAwaitingPhoto, g.Portrait.State)
		gifts = append(gifts, g)
	}
	staff, simulated := gifts[0], gifts[1]

	_, err := e.env.App.Gifts.MoveGift(ctx, gift.GiftMove{SendID: staff.ID, To: gift.SendInProduction})
	require.Equal(t, []string{"portrait"}, apptest.RequireCode(t, err, core.CodeInvalidRequestState).Fields)
	moved, err := e.env.App.Gifts.SimulateFulfilment(ctx, simulated.ID, gift.SendInProduction)
	require.NoError(t, err)
	require.False(t, moved, "the simulator skips a gift awaiting its photo")
	// The simulator's jobs wait (snoozed) rather than finish or fail.
	jobs := apptest.WorkJobs(t, e.env.App, &gift.SimulateFulfilmentWorker{Gifts: e.env.App.Gifts})
	require.Len(t, jobs, 2)
	for _, j := range jobs {
		require.Equal(t, rivertype.JobStateScheduled, j.State, "errors: %v", j.Errors)
	}

	photo := e.env.ReadyArtwork(t, "portrait")
	for _, g := range gifts {
		p, err := e.env.App.Artwork.UpdatePhoto(ctx, e.key, g.ID, artwork.PhotoChange{Version: 1, Action: artwork.PhotoReplace, AssetID: photo})
		require.NoError(t, err)
		_, err = e.env.App.Gifts.MoveGift(ctx, gift.GiftMove{SendID: g.ID, To: gift.SendInProduction})
		require.Equal(t, []string{"portrait"}, apptest.RequireCode(t, err, core.CodeInvalidRequestState).Fields, "awaiting approval still blocks")
		_, err = e.env.App.Artwork.UpdatePhoto(ctx, e.key, g.ID, artwork.PhotoChange{Version: p.Version, Action: artwork.PhotoApprove, RightsConfirmed: true})
		require.NoError(t, err)
	}

	g, err := e.env.App.Gifts.MoveGift(ctx, gift.GiftMove{SendID: staff.ID, To: gift.SendInProduction})
	require.NoError(t, err)
	require.Equal(t, gift.SendInProduction, g.Status)
	moved, err = e.env.App.Gifts.SimulateFulfilment(ctx, simulated.ID, gift.SendInProduction)
	require.NoError(t, err)
	require.True(t, moved)
}
