package billing_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/billing"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/internal/apptest"
)

// A campaign paid and launched, then grown and paid again: its earlier
// gift cannot be regifted while the new checkout's gifts are not prepared,
// and can once launch has prepared them.
func TestRegiftWaitsForACheckoutInProgress(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 1)
	app := f.env.App
	c := f.checkout(t, "regift-key-1")
	_, err := app.Billing.PaySandboxCheckout(ctx, f.owner, sessionOf(t, f, c.ID))
	require.NoError(t, err)
	res, err := app.Billing.LaunchCampaign(ctx, f.owner, f.batch.ID, 0)
	require.NoError(t, err)
	sent := res.Sends[0]
	require.Equal(t, 1, sent.GiftLinkGeneration)

	cur, err := app.Campaigns.GetCampaign(ctx, f.owner, f.batch.ID)
	require.NoError(t, err)
	added, err := app.Campaigns.AddRecipients(ctx, f.owner, f.batch.ID, campaign.RecipientsAdd{
		Recipients: []campaign.RecipientInput{{Name: "Late Comer", Email: "late@example.com"}}, ExpectedPolicyVersion: cur.PolicyVersion})
	require.NoError(t, err)
	c2, err := app.Billing.CreateCampaignCheckout(ctx, f.owner, f.batch.ID, billing.CheckoutParams{ExpectedPolicyVersion: added.Campaign.PolicyVersion, IdempotencyKey: "regift-key-2"})
	require.NoError(t, err)
	require.Equal(t, 1, c2.RecipientCount, "only the person without a gift is paid for")

	regift := giftlink.Regift{Generation: 1, Recipient: giftlink.RegiftRecipient{Name: "Someone Else"}}
	_, err = app.Billing.PaySandboxCheckout(ctx, f.owner, sessionOf(t, f, c2.ID))
	require.NoError(t, err)
	_, err = app.GiftLinks.Regift(ctx, f.owner, sent.ID, regift)
	apptest.RequireCode(t, err, core.CodeCheckoutLocked)
	canRegift := func() bool {
		t.Helper()
		one, err := app.GiftLinks.SendLink(ctx, f.owner, sent.ID)
		require.NoError(t, err)
		list, err := app.GiftLinks.CampaignLinks(ctx, f.owner, f.batch.ID)
		require.NoError(t, err)
		i := slices.IndexFunc(list, func(l giftlink.Link) bool { return l.SendID == sent.ID })
		require.GreaterOrEqual(t, i, 0)
		require.Equal(t, one.CanRegift, list[i].CanRegift, "the gift and the campaign's list agree")
		return one.CanRegift
	}
	require.False(t, canRegift(), "the links say what regift would answer")
	_, err = app.Billing.LaunchCampaign(ctx, f.owner, f.batch.ID, 0)
	require.NoError(t, err)
	require.True(t, canRegift())
	l, err := app.GiftLinks.Regift(ctx, f.owner, sent.ID, regift)
	require.NoError(t, err)
	require.Equal(t, 2, l.Generation)
}
