package approval_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
)

// TestArtworkMustBeReady: a campaign's logo, a person's artwork and an
// uploaded photo name ready files of the workspace, fit for their use;
// anything else is ARTWORK_UNAVAILABLE naming the field, and nothing is
// saved. Six files for one person are TOO_MANY_ARTWORK_FILES.
func TestArtworkMustBeReady(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newQueueEnv(t)
	art, logo, portrait := e.env.ReadyArtwork(t, "artwork"), e.env.ReadyArtwork(t, "logo"), e.env.ReadyArtwork(t, "portrait")
	other := apptest.NewWorkspace(t, e.env.App, apptest.WorkspaceOptions{})
	op, err := e.env.App.Connect.Authenticate(ctx, other.OwnerKey)
	require.NoError(t, err)
	foreign, err := e.env.App.Artwork.Upload(ctx, op, artworkPNG(t, "theirs.png"))
	require.NoError(t, err)

	create := func(in campaign.CampaignInput) error {
		in.Name, in.ProductID, in.Message, in.Mode = "Art", "logo-insulated-tumbler", "Hi {{firstName}}", campaign.ModeAlwaysOn
		in.SenderName, in.SenderCompany = "Sam", "Acme"
		_, err := e.env.App.Campaigns.CreateCampaign(ctx, e.key, in)
		return err
	}
	for _, tc := range []struct {
		name  string
		in    campaign.CampaignInput
		field string
	}{
		{"unknown logo", campaign.CampaignInput{Customization: map[string]string{"logoAssetId": "asset_nope"}}, "customization.logoAssetId"},
		{"another workspace's logo", campaign.CampaignInput{Customization: map[string]string{"logoAssetId": foreign.ID}}, "customization.logoAssetId"},
		{"unknown artwork", campaign.CampaignInput{Recipients: []campaign.RecipientInput{{Name: "A"}, {Name: "B", AssetIDs: []string{art, "asset_gone"}}}}, "recipients[1].assetIds[1]"},
		{"a logo as a portrait", campaign.CampaignInput{Recipients: []campaign.RecipientInput{{Name: "A", Photo: &campaign.RecipientPhoto{Source: campaign.PhotoUpload, AssetID: logo}}}}, "recipients[0].photo.assetId"},
	} {
		e := apptest.RequireCode(t, create(tc.in), core.CodeArtworkUnavailable)
		require.Equal(t, []string{tc.field}, e.Fields, tc.name)
	}
	six := []string{art, art + "1", art + "2", art + "3", art + "4", art + "5"}
	apptest.RequireCode(t, create(campaign.CampaignInput{Recipients: []campaign.RecipientInput{{Name: "A", AssetIDs: six}}}), core.CodeTooManyArtworkFiles)

	require.NoError(t, create(campaign.CampaignInput{Customization: map[string]string{"logoAssetId": logo},
		Recipients: []campaign.RecipientInput{{Name: "A", AssetIDs: []string{art, logo}, Photo: &campaign.RecipientPhoto{Source: campaign.PhotoUpload, AssetID: portrait}}}}))

	// Editing and adding check the same way.
	pb := e.playbook("logo-insulated-tumbler", campaign.CampaignInput{})
	_, err = e.env.App.Approvals.AddToPlaybook(ctx, e.key, pb.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{Name: "C", AssetIDs: []string{"asset_x"}}})
	apptest.RequireCode(t, err, core.CodeArtworkUnavailable)
	_, err = e.env.App.Campaigns.UpdateCampaign(ctx, e.owner, pb.ID, campaign.CampaignPatch{Customization: map[string]string{"logoAssetId": "asset_x"}})
	apptest.RequireCode(t, err, core.CodeArtworkUnavailable)
}

// artworkPNG is an upload of a 300x300 PNG named name.
func artworkPNG(t *testing.T, name string) artwork.UploadInput {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, image.NewGray(image.Rect(0, 0, 300, 300))))
	return artwork.UploadInput{Filename: name, Mime: artwork.MimePNG, Body: b.Bytes()}
}
