package billing_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
)

// A checkout item's refundEligible is its link's canRequestRefund: true for
// a gift whose link was revoked and for one that expired unused; false for
// a live link, for a gift whose refund request waits, and for a gift
// without a link (its address was known).
func TestCheckoutItemRefundEligibleFollowsTheRefundRule(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 0)
	app := f.env.App
	var rs []campaign.RecipientInput
	for i := range 5 {
		r := campaign.RecipientInput{Name: fmt.Sprintf("Person %d", i), Email: fmt.Sprintf("q%d-%s@example.com", i, core.RandomHex(3))}
		if i == 4 {
			r.AddressMode, r.Address, r.City, r.State, r.Zip = gift.AddressKnown, "1 Main St", "Austin", "TX", "78701"
		}
		rs = append(rs, r)
	}
	b, err := app.Campaigns.CreateCampaign(ctx, f.owner, campaign.CampaignInput{
		Name: "Thanks", Mode: campaign.ModeBatch, ProductID: "gourmet-snack-crate", BudgetCents: 1_000_000, PerPersonCents: 20_000, MaxSends: 50,
		SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks {{firstName}}", Recipients: rs,
	})
	require.NoError(t, err)
	f.batch = b
	c, gifts := paidAndLaunched(t, f)
	require.Len(t, gifts, 5)

	// 0: live link. 1: revoked. 2: revoked, refund requested. 3: expired
	// unused (its link's end moved into the past, then the sweep). 4: known address.
	for _, i := range []int{1, 2} {
		_, err := app.GiftLinks.Revoke(ctx, f.owner, gifts[i].ID, 1)
		require.NoError(t, err)
	}
	_, err = app.GiftLinks.RequestRefund(ctx, f.owner, gifts[2].ID, "left the company")
	require.NoError(t, err)
	_, err = app.DB.Exec(ctx, `UPDATE gift_links SET expires_at = $2 WHERE send_id = $1`, gifts[3].ID, f.env.Clock.Now().Add(-1))
	require.NoError(t, err)
	_, err = app.GiftLinks.ExpireLinks(ctx)
	require.NoError(t, err)

	items, err := app.Billing.CheckoutItems(ctx, f.owner, c.ID)
	require.NoError(t, err)
	require.Len(t, items, 5)
	want := []bool{false, true, false, true, false}
	for i, it := range items {
		require.Equal(t, gifts[i].ID, it.SendID)
		require.Equal(t, want[i], it.RefundEligible, "position %d (%s)", i, it.Status)
		if i == 4 {
			require.Equal(t, string(gift.SendReady), it.Status)
			continue
		}
		l, err := app.GiftLinks.SendLink(ctx, f.owner, it.SendID)
		require.NoError(t, err)
		require.Equal(t, l.CanRequestRefund, it.RefundEligible, "position %d: the link's rule", i)
	}
	require.Equal(t, string(gift.SendExpired), items[3].Status)
}
