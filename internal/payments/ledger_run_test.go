package payments_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/ledger"
)

// A randomized run of Stripe top-ups (completed and expired events, with
// replays and out-of-order deliveries), approvals paid from the balance and
// cancellations that credit it back: afterwards the balance is the sum of
// the ledger, it never went below zero, each completed top-up is credited
// once and each cancelled gift credited once.
func TestLedgerInvariantRandomizedRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStripeEnv(t)
	app := s.env.App
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 12))
	key, err := app.Connect.Authenticate(ctx, s.env.OwnerKey)
	require.NoError(t, err)
	pb, err := app.Campaigns.CreateCampaign(ctx, s.owner, campaign.CampaignInput{
		Name: "Thanks", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks {{firstName}}",
	})
	require.NoError(t, err)

	type topup struct{ session, id string }
	var topups []topup
	var gifts []string
	counts := map[string]int{}
	const ops = 120
	for i := range ops {
		switch op := rng.IntN(6); {
		case op == 0 || len(topups) == 0:
			ts, err := app.Ledger.CreateBalanceTopup(ctx, s.owner, ledger.TopupParams{Cents: 2_500 + 500*rng.Int64N(10), IdempotencyKey: fmt.Sprintf("run-topup-%d", i)})
			require.NoError(t, err)
			id := s.topupID(t, ts.SessionID)
			topups = append(topups, topup{ts.SessionID, id})
			counts["topup created"]++
		case op == 1 || op == 2:
			tp := topups[rng.IntN(len(topups))]
			// Few event IDs per top-up, so replays happen.
			require.Equal(t, http.StatusOK, s.completed(t, fmt.Sprintf("evt_done_%s_%d", tp.id, rng.IntN(2)), tp.session, tp.id, "pi_"+tp.id))
			counts["completed event"]++
		case op == 3:
			tp := topups[rng.IntN(len(topups))]
			require.Equal(t, http.StatusOK, s.expired(t, fmt.Sprintf("evt_exp_%s", tp.id), tp.session, tp.id))
			counts["expired event"]++
		case op == 4:
			add, err := app.Approvals.AddToPlaybook(ctx, key, pb.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{Name: fmt.Sprintf("P %d", i), Email: fmt.Sprintf("p%d@example.com", i)}})
			require.NoError(t, err)
			g, err := app.Approvals.ApproveGift(ctx, s.owner, approval.QueueDecision{CampaignID: pb.ID, RecipientID: add.RecipientID})
			if err != nil {
				require.Equal(t, core.CodeInsufficientBalance, core.ErrorCode(err), "%v", err)
				counts["approval refused: INSUFFICIENT_BALANCE"]++
				continue
			}
			gifts = append(gifts, g.ID)
			counts["approval"]++
		case op == 5 && len(gifts) > 0:
			send := gifts[rng.IntN(len(gifts))]
			for range 1 + rng.IntN(2) {
				_, err := app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: send, To: gift.SendCancelled, Reason: "randomized run"})
				if err != nil {
					require.Equal(t, core.CodeInvalidRequestState, core.ErrorCode(err), "%v", err)
				}
			}
			counts["cancellation"]++
		}
	}

	entries := s.env.RequireLedgerConsistent(t, s.owner)
	credited, creditedSend := map[string]int{}, map[string]int{}
	var sum int64
	for _, e := range entries {
		sum += e.Cents
		switch e.Kind {
		case ledger.LedgerTopup:
			credited[e.Note]++
		case ledger.LedgerCredit:
			creditedSend[*e.SendID]++
		}
	}
	for note, n := range credited {
		require.Equal(t, 1, n, "%s credited once", note)
	}
	for send, n := range creditedSend {
		require.Equal(t, 1, n, "%s credited back once", send)
	}
	b, err := app.Approvals.Balance(ctx, s.owner)
	require.NoError(t, err)
	require.Equal(t, sum, b.Cents)
	require.GreaterOrEqual(t, b.Cents, int64(0))
	t.Logf("randomized ledger run (seed %d): %d operations %v; %d ledger entries; final balance %d cents; sum of ledger %d cents",
		seed, ops, counts, len(entries), b.Cents, sum)
}
