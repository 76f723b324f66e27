package billing_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/billing"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/sql/db"
)

// paidAndLaunched pays f's checkout on the sandbox and launches every
// position; it returns the checkout and its gifts in roster order.
func paidAndLaunched(t *testing.T, f fixture) (billing.Checkout, []gift.Gift) {
	t.Helper()
	ctx := context.Background()
	c := f.checkout(t, "paid-and-launched")
	_, err := f.env.App.Billing.PaySandboxCheckout(ctx, f.owner, sessionOf(t, f, c.ID))
	require.NoError(t, err)
	var gifts []gift.Gift
	for cursor := 0; ; {
		step, err := f.env.App.Billing.LaunchCampaign(ctx, f.owner, f.batch.ID, cursor)
		require.NoError(t, err)
		gifts = append(gifts, step.Sends...)
		if step.NextCursor == nil {
			return c, gifts
		}
		cursor = *step.NextCursor
	}
}

// A card-paid gift whose unused link was revoked is refunded through the
// processor that took the checkout (the sandbox here), once however often
// staff approve it, and the workspace's balance is never credited.
func TestCardPaidGiftRefundedThroughTheProcessor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 2)
	app := f.env.App
	_, gifts := paidAndLaunched(t, f)
	g := gifts[0]
	require.Equal(t, gift.FundedByCheckout, g.FundedBy)
	require.Equal(t, gift.SendAwaitingAddress, g.Status)
	_, err := app.GiftLinks.Revoke(ctx, f.owner, g.ID, 1)
	require.NoError(t, err)
	before, err := app.Approvals.Balance(ctx, f.owner)
	require.NoError(t, err)

	r, err := app.GiftLinks.RequestRefund(ctx, f.owner, g.ID, "left the company")
	require.NoError(t, err)
	require.Equal(t, giftlink.RefundRequested, r.State)
	require.Equal(t, gift.FundedByCheckout, r.FundedBy)

	var wg sync.WaitGroup
	results := make([]giftlink.GiftRefund, 6)
	errs := make([]error, 6)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = app.GiftLinks.DecideRefund(ctx, g.ID, giftlink.RefundApprove)
		}()
	}
	wg.Wait()
	for i := range results {
		if errs[i] != nil {
			// An approval that met another one under way says so; none fails otherwise.
			require.Contains(t, errs[i].Error(), "under way")
			continue
		}
		require.Equal(t, giftlink.RefundRefunded, results[i].State)
	}
	final, err := app.GiftLinks.DecideRefund(ctx, g.ID, giftlink.RefundApprove)
	require.NoError(t, err)
	require.Equal(t, giftlink.RefundRefunded, final.State)
	require.True(t, final.Refunded)
	row, err := db.New(app.DB).GiftRefundLatestBySend(ctx, g.ID)
	require.NoError(t, err)
	require.Equal(t, "sbx_re_"+r.ID, row.ProcessorRefundID, "the refund request's ID is the processor's idempotency key")
	after, err := app.Approvals.Balance(ctx, f.owner)
	require.NoError(t, err)
	require.Equal(t, before, after, "a card refund goes to the card, never the balance")
}

// A checkout bought at the gift's prepaid offer charges the offer's price
// and launches gifts that ship only within the offer's states.
func TestPrepaidCheckoutLimitsShippingStates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 0)
	f.batch = f.env.NewBatchOf(t, f.owner, "olive-oil-tasting-set", 2)
	product, err := f.env.App.Catalog.Get(ctx, "olive-oil-tasting-set")
	require.NoError(t, err)
	require.NotNil(t, product.PrepaidOffer)
	c, gifts := paidAndLaunched(t, f)
	require.Equal(t, 2*product.PrepaidOffer.UnitCents, c.AmountCents)
	require.Len(t, gifts, 2)
	for _, g := range gifts {
		require.Equal(t, product.PrepaidOffer.ShippingStates, g.ShippingStates)
		require.False(t, slices.Contains(g.ShippingStates, "HI"))
	}
}
