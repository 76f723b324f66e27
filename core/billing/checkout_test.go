package billing_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/billing"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// fixture is a workspace with a signed-in owner and a batch campaign.
type fixture struct {
	env   *apptest.Env
	owner core.Principal
	batch campaign.Campaign
}

// newFixture makes a draft batch of people people (apptest.NewBatch).
func newFixture(t *testing.T, people int) fixture {
	t.Helper()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	return fixture{env: env, owner: owner, batch: env.NewBatch(t, owner, people)}
}

func (f fixture) checkout(t *testing.T, key string) billing.Checkout {
	t.Helper()
	c, err := f.env.App.Billing.CreateCampaignCheckout(context.Background(), f.owner, f.batch.ID, billing.CheckoutParams{ExpectedPolicyVersion: f.batch.PolicyVersion, IdempotencyKey: key})
	require.NoError(t, err)
	return c
}

func sessionOf(t *testing.T, f fixture, id string) string {
	t.Helper()
	row, err := db.New(f.env.App.DB).CheckoutGet(context.Background(), db.CheckoutGetParams{WorkspaceID: f.env.WorkspaceID, ID: id})
	require.NoError(t, err)
	require.NotNil(t, row.ProcessorSessionID)
	return *row.ProcessorSessionID
}

// A batch paid on the sandbox end to end: open, locked, paid once, launched
// three positions per call (a repeated cursor makes no second gift), then
// consumed, unlocked and never a playbook.
func TestCheckoutSandboxEndToEnd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 4)
	app := f.env.App

	c := f.checkout(t, "checkout-key-1")
	require.Equal(t, billing.CheckoutOpen, c.State)
	require.Equal(t, 4, c.RecipientCount)
	require.Equal(t, 4, c.RemainingCount)
	require.Equal(t, "usd", c.Currency)
	require.Equal(t, core.ModeTest, c.Mode)
	require.Positive(t, c.AmountCents)
	require.Equal(t, c.AmountCents%4, int64(0))
	require.Regexp(t, `/sandbox/pay/sbx_[0-9a-f]{24}$`, c.URL)
	require.Empty(t, c.InvoiceURL)
	pv, err := app.Campaigns.PreviewCampaign(ctx, f.owner, f.batch.ID)
	require.NoError(t, err)
	require.Equal(t, &campaign.PreviewCheckout{ID: c.ID, State: "open", AmountCents: c.AmountCents, URL: c.URL}, pv.Checkout)
	again := f.checkout(t, "checkout-key-1")
	require.Equal(t, c, again, "the same key and version return the same checkout")
	_, err = app.Billing.CreateCampaignCheckout(ctx, f.owner, f.batch.ID, billing.CheckoutParams{ExpectedPolicyVersion: f.batch.PolicyVersion, IdempotencyKey: "checkout-key-2"})
	apptest.RequireCode(t, err, core.CodeCheckoutLocked)

	// Locked while open: edits wait.
	_, err = app.Campaigns.UpdateCampaign(ctx, f.owner, f.batch.ID, campaign.CampaignPatch{Name: apptest.Ptr("Renamed")})
	apptest.RequireCode(t, err, core.CodeCheckoutLocked)
	_, err = app.Billing.LaunchCampaign(ctx, f.owner, f.batch.ID, 0)
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)

	// Paid on the sandbox page, twice: once.
	session := sessionOf(t, f, c.ID)
	paid, err := app.Billing.PaySandboxCheckout(ctx, f.owner, session)
	require.NoError(t, err)
	require.Equal(t, billing.CheckoutPaid, paid.State)
	require.NotNil(t, paid.PaidAt)
	require.Equal(t, f.env.SiteURL+"/billing/invoices/"+c.ID, paid.InvoiceURL)
	require.Equal(t, f.env.SiteURL+"/billing/invoices/"+c.ID+"/pdf", paid.InvoicePDF)
	twice, err := app.Billing.PaySandboxCheckout(ctx, f.owner, session)
	require.NoError(t, err)
	require.Equal(t, paid, twice)
	_, err = app.Billing.AbandonSandboxCheckout(ctx, f.owner, session)
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	_, err = app.Billing.CancelCampaignCheckout(ctx, f.owner, c.ID)
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	cmp, err := app.Campaigns.GetCampaign(ctx, f.owner, f.batch.ID)
	require.NoError(t, err)
	require.Equal(t, campaign.StatusActive, cmp.Status, "paying turns the batch on")
	require.Equal(t, f.batch.PolicyVersion, cmp.PolicyVersion)
	_, err = app.Campaigns.UpdateCampaign(ctx, f.owner, f.batch.ID, campaign.CampaignPatch{Name: apptest.Ptr("Renamed")})
	apptest.RequireCode(t, err, core.CodeCheckoutLocked)

	// Launch: three positions, then the same cursor again (interrupted and
	// resumed), then the rest.
	first, err := app.Billing.LaunchCampaign(ctx, f.owner, f.batch.ID, 0)
	require.NoError(t, err)
	require.Len(t, first.Sends, 3)
	require.Empty(t, first.Errors)
	require.Equal(t, 3, *first.NextCursor)
	for _, g := range first.Sends {
		require.Equal(t, gift.FundedByCheckout, g.FundedBy)
		require.Equal(t, c.AmountCents/4, g.TotalCents)
	}
	require.Equal(t, gift.SendAwaitingAddress, first.Sends[0].Status)
	require.Equal(t, 1, first.Sends[0].GiftLinkGeneration, "a confirm-address person gets a gift link")
	require.Equal(t, gift.SendReady, first.Sends[1].Status)
	replay, err := app.Billing.LaunchCampaign(ctx, f.owner, f.batch.ID, 0)
	require.NoError(t, err)
	require.Equal(t, first, replay, "the same cursor never makes a second gift")
	last, err := app.Billing.LaunchCampaign(ctx, f.owner, f.batch.ID, 3)
	require.NoError(t, err)
	require.Len(t, last.Sends, 1)
	require.Nil(t, last.NextCursor)
	gifts, err := app.Gifts.List(ctx, f.owner, gift.GiftFilter{CampaignID: f.batch.ID, Limit: 50})
	require.NoError(t, err)
	require.Len(t, gifts.Items, 4)

	list, err := app.Billing.ListInvoices(ctx, f.owner, billing.InvoiceFilter{Limit: 50})
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, billing.CheckoutConsumed, list[0].State)
	require.Equal(t, 0, list[0].RemainingCount)
	require.Equal(t, 4, list[0].LaunchCursor)
	items, err := app.Billing.CheckoutItems(ctx, f.owner, c.ID)
	require.NoError(t, err)
	require.Len(t, items, 4)
	for _, it := range items {
		require.NotEmpty(t, it.SendID)
		require.False(t, it.RefundEligible, "%s: a live link or a known address is no refund case", it.Status)
	}
	inv, err := app.Billing.Invoice(ctx, f.owner, c.ID)
	require.NoError(t, err)
	pdf := inv.PDF()
	require.Contains(t, string(pdf[:8]), "%PDF-1.4")
	require.Contains(t, string(pdf), "Person 3")

	// Consumed: edits unlock, but a campaign paid at checkout never becomes a playbook.
	_, err = app.Campaigns.UpdateCampaign(ctx, f.owner, f.batch.ID, campaign.CampaignPatch{Name: apptest.Ptr("Renamed")})
	require.NoError(t, err)
	_, err = app.Campaigns.UpdateCampaign(ctx, f.owner, f.batch.ID, campaign.CampaignPatch{Mode: apptest.Ptr(campaign.ModeAlwaysOn)})
	apptest.RequireCode(t, err, core.CodeModeLocked)
}

func TestCheckoutRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 2)
	app := f.env.App
	in := billing.CheckoutParams{ExpectedPolicyVersion: f.batch.PolicyVersion, IdempotencyKey: "refusal-key-1"}

	key, err := app.Connect.Authenticate(ctx, f.env.OwnerKey)
	require.NoError(t, err)
	_, err = app.Billing.CreateCampaignCheckout(ctx, key, f.batch.ID, in)
	apptest.RequireCode(t, err, core.CodeHumanApprovalRequired)
	member := f.env.AddPerson(t, core.RoleMember)
	_, asMember := f.env.SignIn(t, member.Email)
	_, err = app.Billing.CreateCampaignCheckout(ctx, asMember, f.batch.ID, in)
	apptest.RequireCode(t, err, core.CodeTeamManagerRequired)
	_, err = app.Billing.CreateCampaignCheckout(ctx, f.owner, f.batch.ID, billing.CheckoutParams{ExpectedPolicyVersion: f.batch.PolicyVersion + 1, IdempotencyKey: "refusal-key-1"})
	apptest.RequireCode(t, err, core.CodePolicyChanged)
	_, err = app.Billing.CreateCampaignCheckout(ctx, f.owner, f.batch.ID, billing.CheckoutParams{ExpectedPolicyVersion: f.batch.PolicyVersion, IdempotencyKey: "short"})
	e := apptest.RequireCode(t, err, core.CodeValidation)
	require.Equal(t, []string{"idempotencyKey"}, e.Fields)
	_, err = app.Billing.CreateCampaignCheckout(ctx, f.owner, "cmp_nope", in)
	apptest.RequireCode(t, err, core.CodeNotFound)

	pb, err := app.Campaigns.CreateCampaign(ctx, f.owner, campaign.CampaignInput{
		Name: "PB", Mode: campaign.ModeAlwaysOn, ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme", Message: "Hi",
	})
	require.NoError(t, err)
	_, err = app.Billing.CreateCampaignCheckout(ctx, f.owner, pb.ID, billing.CheckoutParams{ExpectedPolicyVersion: pb.PolicyVersion, IdempotencyKey: "refusal-key-2"})
	apptest.RequireCode(t, err, core.CodeBalanceFunded)

	// Cancelled: unlocked, its page refuses payment, and cancelling again returns it.
	c := f.checkout(t, "refusal-key-3")
	cancelled, err := app.Billing.CancelCampaignCheckout(ctx, f.owner, c.ID)
	require.NoError(t, err)
	require.Equal(t, billing.CheckoutCancelled, cancelled.State)
	require.Empty(t, cancelled.URL)
	_, err = app.Billing.PaySandboxCheckout(ctx, f.owner, sessionOf(t, f, c.ID))
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	again, err := app.Billing.CancelCampaignCheckout(ctx, f.owner, c.ID)
	require.NoError(t, err)
	require.Equal(t, cancelled, again)
	_, err = app.Campaigns.UpdateCampaign(ctx, f.owner, f.batch.ID, campaign.CampaignPatch{Name: apptest.Ptr("Edited")})
	require.NoError(t, err)

	// Expired by the clock: unlocked and no longer payable.
	b, err := app.Campaigns.GetCampaign(ctx, f.owner, f.batch.ID)
	require.NoError(t, err)
	c2, err := app.Billing.CreateCampaignCheckout(ctx, f.owner, f.batch.ID, billing.CheckoutParams{ExpectedPolicyVersion: b.PolicyVersion, IdempotencyKey: "refusal-key-4"})
	require.NoError(t, err)
	f.env.Clock.Advance(billing.CheckoutLifetime)
	_, err = app.Billing.PaySandboxCheckout(ctx, f.owner, sessionOf(t, f, c2.ID))
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	r, err := app.Billing.ReconcileCampaignCheckout(ctx, f.owner, c2.ID)
	require.NoError(t, err)
	require.Equal(t, billing.CheckoutExpired, r.State)
	_, err = app.Campaigns.UpdateCampaign(ctx, f.owner, f.batch.ID, campaign.CampaignPatch{Name: apptest.Ptr("Edited again")})
	require.NoError(t, err)
}

// Twenty concurrent edits racing a checkout freely (the sandbox answers at
// once): an edit that lands first makes the checkout POLICY_CHANGED; every
// edit after it is CHECKOUT_LOCKED; none lands on a campaign with a
// checkout in progress. TestCheckoutLockHoldsWhileTheCheckoutOpens pins
// the window while the checkout opens.
func TestCheckoutLockRace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 2)
	app := f.env.App
	start := make(chan struct{})
	var wg sync.WaitGroup
	edits := make([]error, 20)
	var chk billing.Checkout
	var chkErr error
	for i := range edits {
		wg.Go(func() {
			<-start
			_, edits[i] = app.Campaigns.UpdateCampaign(ctx, f.owner, f.batch.ID, campaign.CampaignPatch{Name: apptest.Ptr(fmt.Sprintf("Edit %d", i))})
		})
	}
	wg.Go(func() {
		<-start
		chk, chkErr = app.Billing.CreateCampaignCheckout(ctx, f.owner, f.batch.ID, billing.CheckoutParams{ExpectedPolicyVersion: f.batch.PolicyVersion, IdempotencyKey: "race-key-1"})
	})
	close(start)
	wg.Wait()
	landed := 0
	for _, err := range edits {
		if err == nil {
			landed++
			continue
		}
		apptest.RequireCode(t, err, core.CodeCheckoutLocked)
	}
	final, err := app.Campaigns.GetCampaign(ctx, f.owner, f.batch.ID)
	require.NoError(t, err)
	if chkErr != nil {
		apptest.RequireCode(t, chkErr, core.CodePolicyChanged)
		require.Positive(t, landed, "the checkout lost to an edit")
		return
	}
	require.Equal(t, billing.CheckoutOpen, chk.State)
	require.Equal(t, final.PolicyVersion, chk.PolicyVersion, "no edit landed after the checkout")
	require.Zero(t, landed, "an edit before the checkout would have changed its version")
	t.Logf("checkout won; %d edits refused with CHECKOUT_LOCKED", len(edits))
}
