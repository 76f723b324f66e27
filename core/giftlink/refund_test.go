package giftlink_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/internal/apptest"
)

// balanceOf is the owner's balance in cents.
func (d *linkDesk) balanceOf() int64 {
	d.t.Helper()
	b, err := d.env.App.Approvals.Balance(context.Background(), d.owner)
	require.NoError(d.t, err)
	return b.Cents
}

// revoked approves a confirm-mode gift and revokes its link.
func (d *linkDesk) revoked(name string) string {
	d.t.Helper()
	id := d.gift(name)
	_, err := d.env.App.GiftLinks.Revoke(context.Background(), d.key, id, 1)
	require.NoError(d.t, err)
	return id
}

func TestRefundOfBalanceGiftCreditsOnceHoweverOftenApproved(t *testing.T) {
	d := newLinkDesk(t)
	ctx := context.Background()
	links := d.env.App.GiftLinks
	active := d.gift("Still Active")
	id := d.revoked("Ada Lovelace")
	before := d.balanceOf()
	l := d.link(id)
	require.True(t, l.CanRequestRefund)
	require.Equal(t, giftlink.RefundNone, l.RefundState)
	require.False(t, d.link(active).CanRequestRefund, "an active link can still be used")

	// Only a signed-in owner or admin asks; an active link is refused.
	_, err := links.RequestRefund(ctx, d.key, id, "sent to the wrong person")
	apptest.RequireCode(t, err, core.CodeHumanApprovalRequired)
	_, err = links.RequestRefund(ctx, d.owner, id, "  ")
	apptest.RequireCode(t, err, core.CodeValidation)
	_, err = links.RequestRefund(ctx, d.owner, active, "changed my mind")
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)

	r, err := links.RequestRefund(ctx, d.owner, id, "sent to the wrong person")
	require.NoError(t, err)
	require.Equal(t, giftlink.RefundRequested, r.State)
	require.False(t, r.Refunded, "requested never reads as refunded")
	require.Equal(t, gift.FundedByBalance, r.FundedBy)
	require.Equal(t, l.ValueCents, r.AmountCents)
	again, err := links.RequestRefund(ctx, d.owner, id, "again")
	require.NoError(t, err)
	require.Equal(t, r.ID, again.ID, "asking again returns the waiting request")
	require.Equal(t, before, d.balanceOf(), "nothing is credited before staff decide")
	l = d.link(id)
	require.Equal(t, giftlink.RefundRequested, l.RefundState)
	require.False(t, l.CanRequestRefund)
	require.False(t, l.CanRegift, "a gift being refunded cannot be regifted")

	// Staff approve it from many places at once: one credit.
	var wg sync.WaitGroup
	errs := make([]error, 12)
	for i := range errs {
		wg.Go(func() {
			out, err := links.DecideRefund(ctx, id, giftlink.RefundApprove)
			if err == nil && out.State != giftlink.RefundRefunded {
				err = errors.New("state " + string(out.State))
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, before+l.ValueCents, d.balanceOf(), "credited exactly once")
	entries := d.env.RequireLedgerConsistent(t, d.owner)
	credits := 0
	for _, e := range entries {
		if e.Kind == "credit" && e.SendID != nil && *e.SendID == id {
			credits++
		}
	}
	require.Equal(t, 1, credits)
	g, err := d.env.App.Gifts.Get(ctx, d.key, id)
	require.NoError(t, err)
	require.Equal(t, gift.SendCancelled, g.Status)
	l = d.link(id)
	require.Equal(t, giftlink.RefundRefunded, l.RefundState)
	require.False(t, l.CanRequestRefund)

	hist, err := links.CampaignRefunds(ctx, d.key, d.campaign)
	require.NoError(t, err)
	require.Len(t, hist, 1)
	require.Equal(t, giftlink.RefundRefunded, hist[0].State)
	require.True(t, hist[0].Refunded)
	require.NotNil(t, hist[0].DecidedAt)
	_, err = links.DecideRefund(ctx, id, giftlink.RefundReject)
	require.NoError(t, err, "a refunded request stays refunded")
	require.Equal(t, before+l.ValueCents, d.balanceOf())
}

func TestRefundRejectedThenAskedAgainForExpiredGift(t *testing.T) {
	d := newLinkDesk(t)
	ctx := context.Background()
	links := d.env.App.GiftLinks
	id := d.gift("Ada Lovelace")
	d.env.Clock.Advance(15 * 24 * time.Hour)
	before := d.balanceOf()
	require.True(t, d.link(id).CanRequestRefund, "an expired, unused gift")

	_, err := links.DecideRefund(ctx, id, giftlink.RefundApprove)
	apptest.RequireCode(t, err, core.CodeNotFound)
	r, err := links.RequestRefund(ctx, d.owner, id, "never answered")
	require.NoError(t, err)
	_, err = links.DecideRefund(ctx, id, "maybe")
	apptest.RequireCode(t, err, core.CodeValidation)
	out, err := links.DecideRefund(ctx, id, giftlink.RefundReject)
	require.NoError(t, err)
	require.Equal(t, giftlink.RefundRejected, out.State)
	require.False(t, out.Refunded)
	_, err = links.DecideRefund(ctx, id, giftlink.RefundApprove)
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	l := d.link(id)
	require.Equal(t, giftlink.RefundRejected, l.RefundState)
	require.True(t, l.CanRequestRefund, "a rejected request may be asked again")
	require.Equal(t, before, d.balanceOf())

	second, err := links.RequestRefund(ctx, d.owner, id, "please look again")
	require.NoError(t, err)
	require.NotEqual(t, r.ID, second.ID)
	out, err = links.DecideRefund(ctx, id, giftlink.RefundApprove)
	require.NoError(t, err)
	require.Equal(t, giftlink.RefundRefunded, out.State)
	require.Equal(t, before+l.ValueCents, d.balanceOf())
	d.env.RequireLedgerConsistent(t, d.owner)
	hist, err := links.CampaignRefunds(ctx, d.owner, d.campaign)
	require.NoError(t, err)
	require.Len(t, hist, 2)
	require.Equal(t, []giftlink.RefundState{giftlink.RefundRefunded, giftlink.RefundRejected}, []giftlink.RefundState{hist[0].State, hist[1].State})
}

// cardRefunder is a CardRefunder test double: its call fails while fail is
// set, else it answers status (succeeded when unset) with message; it
// records every call.
type cardRefunder struct {
	mu      sync.Mutex
	fail    bool
	status  giftlink.CardRefundStatus
	message string
	calls   []giftlink.CardRefund
}

func (c *cardRefunder) RefundCard(_ context.Context, r giftlink.CardRefund) (giftlink.CardRefundResult, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, r)
	if c.fail {
		return giftlink.CardRefundResult{}, core.Errorf(core.CodeUnavailableRead, "the processor is down")
	}
	st := c.status
	if st == "" {
		st = giftlink.CardRefundSucceeded
	}
	return giftlink.CardRefundResult{ProcessorID: "re_" + r.RefundID, Status: st, Message: c.message}, nil
}

// set changes what the double answers.
func (c *cardRefunder) set(st giftlink.CardRefundStatus, message string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.status, c.message = st, message
}

// cardPaid marks gift id paid by a checkout (the billing branch's launch
// makes them), its ledger debit left as it was.
func (d *linkDesk) cardPaid(id string) {
	d.t.Helper()
	_, err := d.env.App.DB.Exec(context.Background(), `UPDATE sends SET funded_by = 'checkout' WHERE id = $1`, id)
	require.NoError(d.t, err)
}

// A card refund reads as refunded only once the processor says it
// succeeded: pending stays processing (and the gift unchanged) until an
// approval finds it succeeded; failed stays processing with the
// processor's reason.
func TestCardRefundIsRefundedOnlyWhenTheProcessorSaysSucceeded(t *testing.T) {
	d := newLinkDesk(t)
	ctx := context.Background()
	links := d.env.App.GiftLinks
	fake := &cardRefunder{status: giftlink.CardRefundPending}
	links.CardRefunder = fake

	id := d.revoked("Pending Card")
	d.cardPaid(id)
	_, err := links.RequestRefund(ctx, d.owner, id, "duplicate order")
	require.NoError(t, err)
	out, err := links.DecideRefund(ctx, id, giftlink.RefundApprove)
	require.NoError(t, err)
	require.Equal(t, giftlink.RefundProcessing, out.State, "pending at the processor")
	require.False(t, out.Refunded)
	g, err := d.env.App.Gifts.Get(ctx, d.key, id)
	require.NoError(t, err)
	require.Equal(t, gift.SendAwaitingAddress, g.Status, "the gift ends only with the refund")
	fake.set(giftlink.CardRefundSucceeded, "")
	out, err = links.DecideRefund(ctx, id, giftlink.RefundApprove)
	require.NoError(t, err)
	require.Equal(t, giftlink.RefundRefunded, out.State)
	require.True(t, out.Refunded)
	g, err = d.env.App.Gifts.Get(ctx, d.key, id)
	require.NoError(t, err)
	require.Equal(t, gift.SendCancelled, g.Status)

	failed := d.revoked("Failed Card")
	d.cardPaid(failed)
	_, err = links.RequestRefund(ctx, d.owner, failed, "duplicate order")
	require.NoError(t, err)
	fake.set(giftlink.CardRefundFailed, "expired_or_canceled_card")
	_, err = links.DecideRefund(ctx, failed, giftlink.RefundApprove)
	e := apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	require.Contains(t, e.Message, "expired_or_canceled_card")
	require.Equal(t, giftlink.RefundProcessing, d.link(failed).RefundState, "a failed refund is not refunded")
	g, err = d.env.App.Gifts.Get(ctx, d.key, failed)
	require.NoError(t, err)
	require.Equal(t, gift.SendAwaitingAddress, g.Status)
}

// A card-paid gift that went on to be fulfilled after its refund was asked
// for is refused before the processor is called: no card refund at all.
func TestCardRefundRechecksTheGiftBeforeTheProcessor(t *testing.T) {
	d := newLinkDesk(t)
	ctx := context.Background()
	links := d.env.App.GiftLinks
	fake := &cardRefunder{}
	links.CardRefunder = fake
	id := d.revoked("Moved On")
	d.cardPaid(id)
	_, err := links.RequestRefund(ctx, d.owner, id, "duplicate order")
	require.NoError(t, err)
	// The gift moved on meanwhile (as staff could move it).
	_, err = d.env.App.DB.Exec(ctx, `UPDATE sends SET status = 'ready' WHERE id = $1`, id)
	require.NoError(t, err)

	_, err = links.DecideRefund(ctx, id, giftlink.RefundApprove)
	e := apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	require.Equal(t, []string{"status"}, e.Fields)
	require.Empty(t, fake.calls, "the processor was never called")
	require.Equal(t, giftlink.RefundRequested, d.link(id).RefundState, "still waiting for staff")
}

var _ giftlink.CardRefunder = (*cardRefunder)(nil)

func TestRefundOfCardGiftGoesThroughTheCardRefunder(t *testing.T) {
	d := newLinkDesk(t)
	ctx := context.Background()
	links := d.env.App.GiftLinks
	links.CardRefunder = nil // the App's own is billing's; start with none
	id := d.revoked("Card Paid")
	d.cardPaid(id)
	before := d.balanceOf()

	// No processor wired (giftwell.New wires core/billing's): approval
	// cannot finish.
	links.CardRefunder = nil
	r, err := links.RequestRefund(ctx, d.owner, id, "duplicate order")
	require.NoError(t, err)
	require.Equal(t, gift.FundedByCheckout, r.FundedBy)
	_, err = links.DecideRefund(ctx, id, giftlink.RefundApprove)
	apptest.RequireCode(t, err, core.CodeInternal)
	require.Equal(t, giftlink.RefundProcessing, d.link(id).RefundState, "approved, not refunded: no processor")

	fake := &cardRefunder{fail: true}
	links.CardRefunder = fake
	_, err = links.DecideRefund(ctx, id, giftlink.RefundApprove)
	apptest.RequireCode(t, err, core.CodeUnavailableRead)
	hist, err := links.CampaignRefunds(ctx, d.owner, d.campaign)
	require.NoError(t, err)
	require.Equal(t, giftlink.RefundProcessing, hist[0].State)
	require.False(t, hist[0].Refunded, "processing never reads as refunded")
	_, err = links.DecideRefund(ctx, id, giftlink.RefundReject)
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)

	fake.fail = false
	out, err := links.DecideRefund(ctx, id, giftlink.RefundApprove)
	require.NoError(t, err)
	require.Equal(t, giftlink.RefundRefunded, out.State)
	out, err = links.DecideRefund(ctx, id, giftlink.RefundApprove)
	require.NoError(t, err)
	require.Equal(t, giftlink.RefundRefunded, out.State)
	require.Len(t, fake.calls, 2, "the failed call and the one that worked; none after")
	require.Equal(t, fake.calls[0], fake.calls[1], "a retry repeats the same idempotent refund")
	require.Equal(t, giftlink.CardRefund{RefundID: r.ID, WorkspaceID: d.env.WorkspaceID, CampaignID: d.campaign, SendID: id,
		Mode: core.ModeTest, AmountCents: r.AmountCents}, fake.calls[1])
	require.Equal(t, before, d.balanceOf(), "a card refund never touches the balance")
	g, err := d.env.App.Gifts.Get(ctx, d.key, id)
	require.NoError(t, err)
	require.Equal(t, gift.SendCancelled, g.Status)
	d.env.RequireLedgerConsistent(t, d.owner)
}

func TestRefundOfAGiftCancelledMeanwhileCreditsNothingMore(t *testing.T) {
	d := newLinkDesk(t)
	ctx := context.Background()
	id := d.revoked("Ada Lovelace")
	before := d.balanceOf()
	_, err := d.env.App.GiftLinks.RequestRefund(ctx, d.owner, id, "wrong person")
	require.NoError(t, err)
	g, err := d.env.App.Gifts.MoveGift(ctx, gift.GiftMove{SendID: id, To: gift.SendCancelled})
	require.NoError(t, err)
	require.Equal(t, before+g.TotalCents, d.balanceOf(), "the cancellation credited it")

	out, err := d.env.App.GiftLinks.DecideRefund(ctx, id, giftlink.RefundApprove)
	require.NoError(t, err)
	require.Equal(t, giftlink.RefundRefunded, out.State, "the money is back already")
	require.Equal(t, before+g.TotalCents, d.balanceOf(), "and only once")
	d.env.RequireLedgerConsistent(t, d.owner)
}
