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
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/internal/apptest"
)

// heldProcessor is reportingProcessor whose CreateCheckoutSession says it
// was called (entered) and then waits for release: the checkout is
// committed as creating and its session not yet recorded.
type heldProcessor struct {
	reportingProcessor
	entered chan struct{}
	release chan struct{}
}

func (p *heldProcessor) CreateCheckoutSession(ctx context.Context, req ledger.CheckoutRequest) (ledger.ProcessorSession, error) {
	close(p.entered)
	select {
	case <-p.release:
	case <-ctx.Done():
		return ledger.ProcessorSession{}, ctx.Err()
	}
	return p.reportingProcessor.CreateCheckoutSession(ctx, req)
}

// Twenty concurrent edits while a checkout is opening (its intent
// committed, the processor still answering): every one is CHECKOUT_LOCKED,
// and the checkout then opens at the campaign's unchanged version.
func TestCheckoutLockHoldsWhileTheCheckoutOpens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 2)
	app := f.env.App
	proc := &heldProcessor{entered: make(chan struct{}), release: make(chan struct{})}
	proc.state.Store(ledger.SessionOpen)
	app.Ledger.Payments = proc

	type result struct {
		c   billing.Checkout
		err error
	}
	opened := make(chan result, 1)
	go func() {
		c, err := app.Billing.CreateCampaignCheckout(ctx, f.owner, f.batch.ID, billing.CheckoutParams{ExpectedPolicyVersion: f.batch.PolicyVersion, IdempotencyKey: "held-race-key"})
		opened <- result{c, err}
	}()
	<-proc.entered

	var wg sync.WaitGroup
	edits := make([]error, 20)
	for i := range edits {
		wg.Go(func() {
			_, edits[i] = app.Campaigns.UpdateCampaign(ctx, f.owner, f.batch.ID, campaign.CampaignPatch{Name: apptest.Ptr(fmt.Sprintf("Edit %d", i))})
		})
	}
	wg.Wait()
	for _, err := range edits {
		apptest.RequireCode(t, err, core.CodeCheckoutLocked)
	}
	close(proc.release)
	r := <-opened
	require.NoError(t, r.err)
	require.Equal(t, billing.CheckoutOpen, r.c.State)
	require.Equal(t, f.batch.PolicyVersion, r.c.PolicyVersion)
	final, err := app.Campaigns.GetCampaign(ctx, f.owner, f.batch.ID)
	require.NoError(t, err)
	require.Equal(t, f.batch.PolicyVersion, final.PolicyVersion, "no edit landed")
	require.Equal(t, f.batch.Name, final.Name)
}
