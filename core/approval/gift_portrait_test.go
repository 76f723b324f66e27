package approval_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/internal/apptest"
)

// TestPortraitLifecycle: a portrait gift starts awaiting approval of the
// person's uploaded photo (awaiting_photo without one); approve, replace
// and reject move it with the current version, each change increasing it;
// a stale version is 409; changes close once the order is in production.
func TestPortraitLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newQueueEnv(t)
	e.fund(core.ModeTest, 1_000_000)
	photo, logo, second := e.env.ReadyArtwork(t, "portrait"), e.env.ReadyArtwork(t, "logo"), e.env.ReadyArtwork(t, "portrait")
	pb := e.playbook("custom-portrait-illustration", campaign.CampaignInput{})
	ana := queued("Ana")
	ana.Photo = &campaign.RecipientPhoto{Source: campaign.PhotoUpload, AssetID: photo}
	bo := queued("Bo")
	bo.Photo = &campaign.RecipientPhoto{Source: campaign.PhotoLinkedIn, ProfileURL: "https://www.linkedin.com/in/bo"}
	ids := e.add(pb.ID, ana, bo)
	approve := func(recipientID string) gift.Gift {
		g, err := e.env.App.Approvals.ApproveGift(ctx, e.owner, approval.QueueDecision{CampaignID: pb.ID, RecipientID: recipientID})
		require.NoError(t, err)
		return g
	}
	sent, linked := approve(ids[0]), approve(ids[1])
	require.Equal(t, &artwork.Portrait{State: artwork.PortraitAwaitingApproval, Version: 1, AssetID: photo}, sent.Portrait)
	require.Equal(t, &artwork.Portrait{State: artwork.PortraitAwaitingPhoto, Version: 1}, linked.Portrait)

	update := func(ch artwork.PhotoChange) (artwork.Portrait, error) {
		return e.env.App.Artwork.UpdatePhoto(ctx, e.key, sent.ID, ch)
	}
	_, err := update(artwork.PhotoChange{Version: 1, Action: artwork.PhotoApprove})
	require.Equal(t, []string{"rightsConfirmed"}, apptest.RequireCode(t, err, core.CodeValidation).Fields)
	_, err = update(artwork.PhotoChange{Version: 2, Action: artwork.PhotoApprove, RightsConfirmed: true})
	stale := apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	require.Equal(t, 409, stale.Status())
	require.Equal(t, []string{"version"}, stale.Fields)

	p, err := update(artwork.PhotoChange{Version: 1, Action: artwork.PhotoApprove, RightsConfirmed: true})
	require.NoError(t, err)
	require.Equal(t, artwork.PortraitApproved, p.State)
	require.Equal(t, 2, p.Version)
	require.Equal(t, apptest.Epoch, *p.ApprovedAt)

	_, err = update(artwork.PhotoChange{Version: 2, Action: artwork.PhotoReplace, AssetID: logo})
	require.Equal(t, []string{"assetId"}, apptest.RequireCode(t, err, core.CodeArtworkUnavailable).Fields, "a logo is no portrait")
	p, err = update(artwork.PhotoChange{Version: 2, Action: artwork.PhotoReject})
	require.NoError(t, err)
	require.Equal(t, artwork.Portrait{State: artwork.PortraitAwaitingPhoto, Version: 3}, p)
	_, err = update(artwork.PhotoChange{Version: 3, Action: artwork.PhotoApprove, RightsConfirmed: true})
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	p, err = update(artwork.PhotoChange{Version: 3, Action: artwork.PhotoReplace, AssetID: second})
	require.NoError(t, err)
	require.Equal(t, artwork.Portrait{State: artwork.PortraitAwaitingApproval, Version: 4, AssetID: second}, p)

	got, err := e.env.App.Gifts.Get(ctx, e.key, sent.ID)
	require.NoError(t, err)
	require.Equal(t, &p, got.Portrait, "the gift shows its portrait")

	// Once the order is reviewed, the portrait stays as it is.
	_, err = e.env.App.DB.Exec(ctx, `UPDATE sends SET status = 'in_production' WHERE id = $1`, sent.ID)
	require.NoError(t, err)
	_, err = update(artwork.PhotoChange{Version: 4, Action: artwork.PhotoApprove, RightsConfirmed: true})
	require.Contains(t, apptest.RequireCode(t, err, core.CodeInvalidRequestState).Message, "close once the order is reviewed")

	// A gift without a portrait, and another workspace's gift.
	plain := e.playbook("gourmet-snack-crate", campaign.CampaignInput{})
	g, err := e.env.App.Approvals.ApproveGift(ctx, e.owner, approval.QueueDecision{CampaignID: plain.ID, RecipientID: e.add(plain.ID, queued("Cy"))[0]})
	require.NoError(t, err)
	require.Nil(t, g.Portrait)
	_, err = e.env.App.Artwork.UpdatePhoto(ctx, e.key, g.ID, artwork.PhotoChange{Version: 1, Action: artwork.PhotoReject})
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	_, err = e.env.App.Artwork.UpdatePhoto(ctx, e.key, "send_nope", artwork.PhotoChange{Version: 1, Action: artwork.PhotoReject})
	apptest.RequireCode(t, err, core.CodeNotFound)
}
