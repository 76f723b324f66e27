package giftlink_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// TestLedgerInvariantAfterARandomizedRun runs a random sequence of top-ups,
// approvals, refunds (revoke, request, staff approval, sometimes approved
// twice) and cancellations on one workspace and checks after every step
// that the balance equals the sum of its ledger and never went below zero,
// and at the end that no gift got back more than it paid. It logs the seed
// and the figures.
func TestLedgerInvariantAfterARandomizedRun(t *testing.T) {
	ctx := context.Background()
	d := newLedgerDesk(t)
	links, camps := d.env.App.GiftLinks, d.env.App.Approvals
	seed := rand.Uint64()
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	t.Logf("seed %d", seed)
	var open []string // gifts awaiting their address, neither refunded nor cancelled
	counts := map[string]int{}
	n := 0
	approve := func() {
		n++
		res, err := camps.AddToPlaybook(ctx, d.key, d.campaign, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{
			Name: fmt.Sprintf("Person %d", n), Email: fmt.Sprintf("p%d-%s@example.com", n, core.RandomHex(3))}})
		require.NoError(t, err)
		g, err := camps.ApproveGift(ctx, d.owner, approval.QueueDecision{CampaignID: d.campaign, RecipientID: res.RecipientID})
		switch core.ErrorCode(err) {
		case "":
			open = append(open, g.ID)
			counts["approval"]++
		case core.CodeInsufficientBalance:
			counts["approval refused: balance"]++
		default:
			require.NoError(t, err)
		}
	}
	take := func() string {
		i := rng.IntN(len(open))
		id := open[i]
		open = append(open[:i], open[i+1:]...)
		return id
	}
	for range 105 {
		d.env.RequireLedgerConsistent(t, d.owner)
		switch op := rng.IntN(10); {
		case op < 2:
			cents := int64(2_500 + rng.IntN(30_000))
			d.env.TopUp(t, d.owner, cents)
			counts["top-up"]++
		case op < 6 || len(open) == 0:
			approve()
		case op < 8:
			id := take()
			_, err := links.Revoke(ctx, d.key, id, 1)
			require.NoError(t, err)
			_, err = links.RequestRefund(ctx, d.owner, id, "randomized run")
			require.NoError(t, err)
			for range 1 + rng.IntN(2) {
				r, err := links.DecideRefund(ctx, id, giftlink.RefundApprove)
				require.NoError(t, err)
				require.Equal(t, giftlink.RefundRefunded, r.State)
				counts["refund approval"]++
			}
			counts["refund"]++
		default:
			id := take()
			to := gift.SendCancelled
			if rng.IntN(2) == 0 {
				to = gift.SendDeclined
			}
			for range 1 + rng.IntN(2) {
				_, err := d.env.App.Gifts.MoveGift(ctx, gift.GiftMove{SendID: id, To: to, Reason: "randomized run"})
				require.NoError(t, err)
			}
			counts["cancellation"]++
		}
	}
	entries := d.env.RequireLedgerConsistent(t, d.owner)
	b, err := camps.Balance(ctx, d.owner)
	require.NoError(t, err)
	sum, err := db.New(d.env.App.DB).LedgerSum(ctx, db.LedgerSumParams{WorkspaceID: d.env.WorkspaceID, Mode: "test"})
	require.NoError(t, err)
	paid, back := map[string]int64{}, map[string]int64{}
	for _, e := range entries {
		if e.SendID == nil {
			continue
		}
		switch e.Kind {
		case "debit":
			paid[*e.SendID] -= e.Cents
		case "credit":
			back[*e.SendID] += e.Cents
		}
	}
	for id, c := range back {
		require.Equal(t, paid[id], c, "gift %s got back exactly what it paid", id)
	}
	require.GreaterOrEqual(t, b.Cents, int64(0))
	require.Equal(t, sum, b.Cents)
	t.Logf("operations: 105 (%d top-ups, %d approvals, %d approvals refused for balance, %d refunds with %d staff approvals, %d cancellations or declines); "+
		"ledger entries %d; final balance %d cents; sum of ledger %d cents",
		counts["top-up"], counts["approval"], counts["approval refused: balance"], counts["refund"], counts["refund approval"],
		counts["cancellation"], len(entries), b.Cents, sum)
}

// newLedgerDesk is newLinkDesk with an empty balance, so that approvals
// meet a balance that cannot cover them too.
func newLedgerDesk(t *testing.T) *linkDesk {
	t.Helper()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	key, err := env.App.Connect.Authenticate(context.Background(), env.OwnerKey)
	require.NoError(t, err)
	c, err := env.App.Campaigns.CreateCampaign(context.Background(), owner, campaign.CampaignInput{
		Name: "Ledger run", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam Seller", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!", MonthlyBudgetCents: 10_000_000,
		BudgetCents: 10_000_000, MaxSends: 2_000,
	})
	require.NoError(t, err)
	return &linkDesk{t: t, env: env, owner: owner, key: key, campaign: c.ID}
}
