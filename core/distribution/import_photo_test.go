package distribution_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/distribution"
)

// portraitCampaign is an active playbook of a gift that requires a portrait.
func (d *desk) portraitCampaign() campaign.Campaign {
	d.t.Helper()
	c, err := d.env.App.Campaigns.CreateCampaign(context.Background(), d.owner, campaign.CampaignInput{
		Name: "Portraits", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "custom-portrait-illustration",
		SenderName: "Sam Seller", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!",
	})
	require.NoError(d.t, err)
	return c
}

// A row naming an asset that is not a ready file of the workspace is left
// out with ARTWORK_UNAVAILABLE; the other rows are imported.
func TestImportRowWithUnavailableAsset(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	ctx := context.Background()
	c := d.portraitCampaign()
	photo := d.env.ReadyArtwork(t, "portrait")
	sum, err := d.env.App.Distribution.SaveImport(ctx, d.key, c.ID, distribution.ImportRequest{ImportID: "assets",
		Headers: []string{"name", "email", "photo_url"},
		Rows: [][]string{
			{"Ana Alvarez", "ana@example.com", photo},
			{"Bo Berg", "bo@example.com", "asset_nope"},
			{"Cy Chan", "cy@example.com", ""},
		}})
	require.NoError(t, err)
	require.Equal(t, distribution.ImportCounts{Rows: 3, Added: 2, Problems: 1}, sum.Counts)
	require.Len(t, sum.Problems, 1)
	require.Equal(t, 2, sum.Problems[0].Row)
	require.Equal(t, core.CodeArtworkUnavailable, sum.Problems[0].Code)
	require.Equal(t, []string{"photo.assetId"}, sum.Problems[0].Fields)
	got, err := d.env.App.Campaigns.GetCampaign(ctx, d.key, c.ID)
	require.NoError(t, err)
	require.Len(t, got.Recipients, 2)
	require.Equal(t, &campaign.RecipientPhoto{Source: campaign.PhotoUpload, AssetID: photo}, got.Recipients[0].Photo)
}
