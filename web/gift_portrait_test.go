package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/core/campaign"
)

// A portrait gift shows the blocker "Needs a photo" on its page and on its
// campaign's list while its portrait awaits a photo or its approval, and
// no longer once the portrait is approved.
func TestGiftPagesShowNeedsAPhoto(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	app := h.env.App
	owner := h.ownerPrincipal()
	h.env.TopUp(t, owner, 1_000_000)
	key, err := app.Connect.Authenticate(ctx, h.env.OwnerKey)
	require.NoError(t, err)
	c, err := app.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{
		Name: "Portraits", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "custom-portrait-illustration",
		SenderName: "Sam Sender", SenderCompany: "Acme", Message: "Thanks {{firstName}}!", MonthlyBudgetCents: 10_000_000,
	})
	require.NoError(t, err)
	res, err := app.Approvals.AddToPlaybook(ctx, key, c.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{
		Name: "Pat Portrait", Photo: &campaign.RecipientPhoto{Source: campaign.PhotoLinkedIn, ProfileURL: "https://www.linkedin.com/in/pat"},
	}})
	require.NoError(t, err)
	g, err := app.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: res.RecipientID})
	require.NoError(t, err)

	cl := h.client()
	cl.signIn(h.env.OwnerEmail)
	pages := func() (sent, list string) {
		page := cl.get("/gifts/" + g.ID)
		require.Equal(t, http.StatusOK, page.StatusCode, page.Body)
		camp := cl.get("/campaigns/" + c.ID)
		require.Equal(t, http.StatusOK, camp.StatusCode, camp.Body)
		return page.Body, row(t, camp.Body, g.ID)
	}
	sent, list := pages()
	require.Contains(t, sent, `id="gift-blocker">Needs a photo</span>`)
	require.Contains(t, list, "Needs a photo")

	p, err := app.Artwork.UpdatePhoto(ctx, key, g.ID, artwork.PhotoChange{Version: 1, Action: artwork.PhotoReplace, AssetID: h.env.ReadyArtwork(t, "portrait")})
	require.NoError(t, err)
	sent, list = pages()
	require.Contains(t, sent, "Needs a photo", "awaiting approval still needs one")
	require.Contains(t, list, "Needs a photo")

	_, err = app.Artwork.UpdatePhoto(ctx, key, g.ID, artwork.PhotoChange{Version: p.Version, Action: artwork.PhotoApprove, RightsConfirmed: true})
	require.NoError(t, err)
	sent, list = pages()
	require.False(t, strings.Contains(sent, "Needs a photo") || strings.Contains(list, "Needs a photo"), "an approved portrait blocks nothing")
}
