package billing_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/billing"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/internal/apptest"
)

// A launch that starts past unprepared positions never answers "done": the
// call that reaches the last position answers the first position still
// waiting, and following nextCursor from there consumes the checkout.
func TestLaunchFromASkippingCursorReturnsToTheFirstPending(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 4)
	app := f.env.App
	c := f.checkout(t, "skip-cursor-key")
	_, err := app.Billing.PaySandboxCheckout(ctx, f.owner, sessionOf(t, f, c.ID))
	require.NoError(t, err)

	step, err := app.Billing.LaunchCampaign(ctx, f.owner, f.batch.ID, 3)
	require.NoError(t, err)
	require.Len(t, step.Sends, 1)
	require.NotNil(t, step.NextCursor, "positions 0-2 have no gift yet")
	require.Equal(t, 0, *step.NextCursor)
	list, err := app.Billing.ListInvoices(ctx, f.owner, billing.InvoiceFilter{Limit: 10})
	require.NoError(t, err)
	require.Equal(t, billing.CheckoutPaid, list[0].State)
	require.Equal(t, 3, list[0].RemainingCount)
	require.Equal(t, 0, list[0].LaunchCursor, "launchCursor is the first position not prepared")

	calls := 1
	for step.NextCursor != nil {
		require.Less(t, calls, 10, "launch must end")
		step, err = app.Billing.LaunchCampaign(ctx, f.owner, f.batch.ID, *step.NextCursor)
		require.NoError(t, err)
		calls++
	}
	require.Equal(t, 2, calls)
	list, err = app.Billing.ListInvoices(ctx, f.owner, billing.InvoiceFilter{Limit: 10})
	require.NoError(t, err)
	require.Equal(t, billing.CheckoutConsumed, list[0].State)
	require.Equal(t, 0, list[0].RemainingCount)
	require.Equal(t, 4, list[0].LaunchCursor)
	gifts, err := app.Gifts.List(ctx, f.owner, gift.GiftFilter{CampaignID: f.batch.ID, Limit: 50})
	require.NoError(t, err)
	require.Len(t, gifts.Items, 4)

	// The cursor at the end of a consumed checkout is done, with nothing more made.
	end, err := app.Billing.LaunchCampaign(ctx, f.owner, f.batch.ID, 4)
	require.NoError(t, err)
	require.Nil(t, end.NextCursor)
	require.Empty(t, end.Sends)
}

// A launch that fails in the middle of a batch (the second position's gift
// cannot be written: an injected database failure) commits nothing: no
// gift, no position marked, the checkout's progress unchanged. Resumed with
// the same cursor, it makes exactly the batch's three gifts.
func TestLaunchInterruptedMidBatchCommitsNothingAndResumes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 4)
	app := f.env.App
	c := f.checkout(t, "interrupted-key")
	_, err := app.Billing.PaySandboxCheckout(ctx, f.owner, sessionOf(t, f, c.ID))
	require.NoError(t, err)
	items, err := app.Billing.CheckoutItems(ctx, f.owner, c.ID)
	require.NoError(t, err)
	_, err = app.DB.Exec(ctx, `CREATE FUNCTION test_fail_launch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.recipient_id = '`+items[1].RecipientID+`' THEN RAISE EXCEPTION 'injected: the database went away'; END IF;
    RETURN NEW;
END $$`)
	require.NoError(t, err)
	_, err = app.DB.Exec(ctx, `CREATE TRIGGER test_fail_launch BEFORE INSERT ON sends FOR EACH ROW EXECUTE FUNCTION test_fail_launch()`)
	require.NoError(t, err)

	_, err = app.Billing.LaunchCampaign(ctx, f.owner, f.batch.ID, 0)
	apptest.RequireCode(t, err, core.CodeInternal)
	gifts, err := app.Gifts.List(ctx, f.owner, gift.GiftFilter{CampaignID: f.batch.ID, Limit: 50})
	require.NoError(t, err)
	require.Empty(t, gifts.Items, "position 0's gift was rolled back with the batch")
	items, err = app.Billing.CheckoutItems(ctx, f.owner, c.ID)
	require.NoError(t, err)
	for _, it := range items {
		require.Equal(t, "pending", it.Status)
		require.Empty(t, it.SendID)
	}
	list, err := app.Billing.ListInvoices(ctx, f.owner, billing.InvoiceFilter{Limit: 10})
	require.NoError(t, err)
	require.Equal(t, 4, list[0].RemainingCount)
	require.Equal(t, 0, list[0].LaunchCursor)

	_, err = app.DB.Exec(ctx, `DROP TRIGGER test_fail_launch ON sends`)
	require.NoError(t, err)
	step, err := app.Billing.LaunchCampaign(ctx, f.owner, f.batch.ID, 0)
	require.NoError(t, err)
	require.Len(t, step.Sends, 3)
	require.Empty(t, step.Errors)
	require.Equal(t, 3, *step.NextCursor)
	gifts, err = app.Gifts.List(ctx, f.owner, gift.GiftFilter{CampaignID: f.batch.ID, Limit: 50})
	require.NoError(t, err)
	require.Len(t, gifts.Items, 3)
}
