package giftlink_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/internal/apptest"
)

// TestConfirmRefusesAStateOutsideThePrepaidOffer: a gift bought at a
// prepaid offer carries its shipping states (the billing branch's launch
// sets them at creation; here the column is set as it would be), and its
// recipient cannot confirm an address elsewhere; the message names the
// allowed states.
func TestConfirmRefusesAStateOutsideThePrepaidOffer(t *testing.T) {
	t.Parallel()
	g := newLinkGifts(t)
	ctx := context.Background()
	sendID, token := g.gift("1")
	_, err := g.env.App.DB.Exec(ctx, `UPDATE sends SET shipping_states = $2 WHERE id = $1`, sendID, []string{"CA", "NY", "TX"})
	require.NoError(t, err)
	sent, err := g.env.App.Gifts.Get(ctx, g.key, sendID)
	require.NoError(t, err)
	require.Equal(t, []string{"CA", "NY", "TX"}, sent.ShippingStates)

	page, err := g.env.App.GiftLinks.Confirm(ctx, token, ip, goodAddress()) // Illinois
	e := apptest.RequireCode(t, err, core.CodeValidation)
	require.Equal(t, []string{"state"}, e.Fields)
	require.Contains(t, e.Message, "this gift ships only to CA, NY, TX; Illinois (IL) is not one of them")
	require.Equal(t, giftlink.PageOpen, page.State, "the page to correct the address on")

	texas := goodAddress()
	texas.City, texas.State, texas.Zip = "Austin", "Texas", "78701"
	page, err = g.env.App.GiftLinks.Confirm(ctx, token, ip, texas)
	require.NoError(t, err)
	require.Equal(t, giftlink.PageConfirmed, page.State)
	sent, err = g.env.App.Gifts.Get(ctx, g.key, sendID)
	require.NoError(t, err)
	require.Equal(t, gift.SendReady, sent.Status)
}

// TestGiftCreationStoresShippingStates: the gift creation input's
// ShippingStates lands on the gift; without it every state is allowed.
func TestGiftCreationStoresShippingStates(t *testing.T) {
	t.Parallel()
	g := newLinkGifts(t)
	ctx := context.Background()
	c, err := g.env.App.Campaigns.CreateCampaign(ctx, g.key, campaign.CampaignInput{
		Name: "Batch", Mode: campaign.ModeBatch, ProductID: "logo-insulated-tumbler", SenderName: "Sam", SenderCompany: "Acme",
		BudgetCents: 100_000, PerPersonCents: 10_000, MaxSends: 10, Message: "Hi",
		Recipients: []campaign.RecipientInput{{Name: "Ana Lee"}, {Name: "Bo Chan"}},
	})
	require.NoError(t, err)
	limited, err := g.env.App.Approvals.InsertSend(ctx, g.key, approval.SendParams{CampaignID: c.ID, RecipientID: c.Recipients[0].RecipientID,
		TotalCents: 5_400, FundedBy: gift.FundedByCheckout, ShippingStates: []string{"WA", "OR"}})
	require.NoError(t, err)
	open, err := g.env.App.Approvals.InsertSend(ctx, g.key, approval.SendParams{CampaignID: c.ID, RecipientID: c.Recipients[1].RecipientID,
		TotalCents: 5_400, FundedBy: gift.FundedByCheckout})
	require.NoError(t, err)
	sent, err := g.env.App.Gifts.Get(ctx, g.key, limited)
	require.NoError(t, err)
	require.Equal(t, []string{"WA", "OR"}, sent.ShippingStates)
	sent, err = g.env.App.Gifts.Get(ctx, g.key, open)
	require.NoError(t, err)
	require.Empty(t, sent.ShippingStates)
}
