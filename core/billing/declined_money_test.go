package billing_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/core/tracking"
)

// declineByLink declines gift sendID as its recipient does on their page.
func declineByLink(t *testing.T, f fixture, sendID string) {
	t.Helper()
	ctx := context.Background()
	l, err := f.env.App.GiftLinks.SendLink(ctx, f.owner, sendID)
	require.NoError(t, err)
	token := strings.TrimPrefix(l.URL, f.env.SiteURL+"/g/")
	_, err = f.env.App.GiftLinks.Open(ctx, token, "203.0.113.7")
	require.NoError(t, err)
	_, err = f.env.App.GiftLinks.Decline(ctx, token, "203.0.113.7")
	require.NoError(t, err)
}

// A card-paid gift its recipient declined keeps its money, held for it:
// an owner regifts it (a member and a key may not), or asks a refund to
// the card, which staff approve; a gift in every other state beside it;
// and campaign_results, the report, the invoice and the campaign's totals
// count all of them by the same definitions.
func TestDeclinedCardPaidGiftMoneyIsHeldThenRegiftedOrRefunded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 1)
	app := f.env.App
	var people []campaign.RecipientInput
	for i := range 7 {
		people = append(people, campaign.RecipientInput{Name: fmt.Sprintf("Person %d", i)})
	}
	var err error
	f.batch, err = app.Campaigns.CreateCampaign(ctx, f.owner, campaign.CampaignInput{
		Name: "Thanks by link", Mode: campaign.ModeBatch, ProductID: "gourmet-snack-crate", BudgetCents: 1_000_000,
		PerPersonCents: 20_000, MaxSends: 50, SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks {{firstName}}", Recipients: people,
	})
	require.NoError(t, err)
	c, gifts := paidAndLaunched(t, f)
	require.Len(t, gifts, 7)
	unit := gifts[0].TotalCents
	require.Positive(t, unit)
	id := func(i int) string { return gifts[i].ID }

	// 0 waits for its address; 1 declined and held; 2 declined and refunded
	// to the card; 3 expired; 4 shipped; 5 cancelled; 6 declined, regifted.
	for _, i := range []int{1, 2, 6} {
		declineByLink(t, f, id(i))
	}
	for _, m := range []gift.GiftMove{
		{SendID: id(3), To: gift.SendExpired},
		{SendID: id(4), To: gift.SendReady}, {SendID: id(4), To: gift.SendInProduction}, {SendID: id(4), To: gift.SendShipped},
		{SendID: id(5), To: gift.SendCancelled},
	} {
		_, err := app.Gifts.MoveGift(ctx, m)
		require.NoError(t, err)
	}

	money, err := app.Gifts.GiftMoney(ctx, f.owner, id(1))
	require.NoError(t, err)
	require.Equal(t, gift.MoneyHeld, money.State, "a declined card-paid gift's money is held for it")
	require.NotNil(t, money.EndedAt)
	l, err := app.GiftLinks.SendLink(ctx, f.owner, id(1))
	require.NoError(t, err)
	require.True(t, l.CanRegift)
	require.True(t, l.CanRequestRefund)

	// Regift: only a signed-in owner or admin sends the held money on.
	regift := giftlink.Regift{Generation: 1, Recipient: giftlink.RegiftRecipient{Name: "Someone Else"}}
	member := f.env.AddPerson(t, core.RoleMember)
	_, memberP := f.env.SignIn(t, member.Email)
	_, err = app.GiftLinks.Regift(ctx, memberP, id(6), regift)
	require.Error(t, err)
	key, err := app.Connect.Authenticate(ctx, f.env.OwnerKey)
	require.NoError(t, err)
	_, err = app.GiftLinks.Regift(ctx, key, id(6), regift)
	require.Equal(t, core.CodeHumanApprovalRequired, core.ErrorCode(err))
	re, err := app.GiftLinks.Regift(ctx, f.owner, id(6), regift)
	require.NoError(t, err)
	require.Equal(t, 2, re.Generation)
	require.Equal(t, giftlink.LinkActive, re.LinkState)
	g6, err := app.Gifts.Get(ctx, f.owner, id(6))
	require.NoError(t, err)
	require.Equal(t, gift.SendAwaitingAddress, g6.Status, "the regifted gift waits for its new person's address")
	require.Equal(t, "Someone Else", g6.Recipient.Name)

	// Refund to the card: asked by the owner, approved by staff.
	_, err = app.GiftLinks.RequestRefund(ctx, f.owner, id(2), "declined; refund the card")
	require.NoError(t, err)
	r, err := app.GiftLinks.DecideRefund(ctx, id(2), giftlink.RefundApprove)
	require.NoError(t, err)
	require.Equal(t, giftlink.RefundRefunded, r.State)
	money, err = app.Gifts.GiftMoney(ctx, f.owner, id(2))
	require.NoError(t, err)
	require.Equal(t, gift.MoneyBack, money.State)
	require.True(t, money.ToCard)
	require.NotNil(t, money.BackAt)
	l, err = app.GiftLinks.SendLink(ctx, f.owner, id(2))
	require.NoError(t, err)
	require.False(t, l.CanRegift, "a refunded gift is not regifted")
	require.False(t, l.CanRequestRefund)

	want := gift.Totals{
		Gifts: 6, GiftsCents: 6 * unit, Sent: 3, SentCents: 3 * unit, Declined: 2, Expired: 1,
		Refunded: 1, RefundedCents: unit, CommittedCents: 5 * unit, HeldCents: 2 * unit, Cancelled: 1,
	}
	totals, err := app.Gifts.CampaignTotals(ctx, f.owner, f.batch.ID)
	require.NoError(t, err)
	require.Equal(t, want, totals)

	res, err := app.Tracking.CampaignResults(ctx, f.owner, f.batch.ID)
	require.NoError(t, err)
	require.Equal(t, []any{want.Gifts, want.Cancelled, want.Sent, want.Declined, want.Expired, want.Refunded, want.CommittedCents, want.HeldCents, want.RefundedCents},
		[]any{res.TotalSends, res.Cancelled, res.Sent, res.Declined, res.Expired, res.Refunded, res.CommittedCents, res.HeldCents, res.RefundedCents})

	today := f.env.Clock.Now().UTC().Format(time.DateOnly)
	rep, err := app.Tracking.GetReport(ctx, f.owner, tracking.ReportInput{From: today, To: today, CampaignID: f.batch.ID})
	require.NoError(t, err)
	rt := rep.Totals
	require.Equal(t, []any{want.Gifts, want.Cancelled, want.Sent, want.Declined, want.Expired, want.Refunded, want.CommittedCents, want.HeldCents, want.RefundedCents},
		[]any{rt.Gifts, rt.Cancelled, rt.Sent, rt.Declined, rt.Expired, rt.Refunded, rt.CommittedCents, rt.HeldCents, rt.RefundedCents})

	inv, err := app.Billing.Invoice(ctx, f.owner, c.ID)
	require.NoError(t, err)
	require.Equal(t, want, inv.Totals, "the invoice counts its gifts as everything else does")
	lines := strings.Join(inv.Lines(), "\n")
	require.Contains(t, lines, "held for a regift or a refund")
	require.Contains(t, lines, "refunded to the card")
}
