package web_test

import (
	"context"
	"html"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
)

// The review page's total counts only the people owed a gift: not those
// with a gift, not those an owner skipped.
func TestCampaignPageDoesNotOweSkippedPeople(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t)
	owner := h.ownerPrincipal()
	c, err := h.env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{
		Name: "Renewals thank-you", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam Sender", SenderCompany: "Acme", Message: "Thanks {{firstName}}!",
	})
	require.NoError(t, err)
	added, err := h.env.App.Campaigns.AddRecipients(ctx, owner, c.ID, campaign.RecipientsAdd{Recipients: []campaign.RecipientInput{
		{Name: "Ada Lovelace"}, {Name: "Bea Brown"}, {Name: "Cy Clark"},
	}})
	require.NoError(t, err)
	for _, id := range added.Added[:2] {
		_, err := h.env.App.Approvals.SkipGift(ctx, owner, approval.QueueSkip{CampaignID: c.ID, RecipientID: id})
		require.NoError(t, err)
	}
	pv, err := h.env.App.Campaigns.PreviewCampaign(ctx, owner, c.ID)
	require.NoError(t, err)

	browser := h.client()
	browser.signIn(h.env.OwnerEmail)
	res := browser.get("/campaigns/" + c.ID + "?review=1")
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	body := html.UnescapeString(res.Body)
	require.Contains(t, body, core.Dollars(pv.UnitCents)+" for the 1 person on the roster without a gift yet (2 skipped, not counted).")
}
