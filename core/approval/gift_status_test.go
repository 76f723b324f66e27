package approval_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/internal/apptest"
)

// TestGiftMoveTable holds the move table to the one recorded in
// docs/decisions/0061-gift-statuses-and-moves.md.
func TestGiftMoveTable(t *testing.T) {
	t.Parallel()
	allowed := map[[2]string]bool{
		{"awaiting_address", "ready"}: true, {"awaiting_address", "declined"}: true,
		{"awaiting_address", "expired"}: true, {"awaiting_address", "cancelled"}: true,
		{"ready", "in_production"}: true, {"ready", "declined"}: true, {"ready", "cancelled"}: true,
		{"in_production", "shipped"}: true, {"shipped", "delivered"}: true,
	}
	require.Len(t, gift.SendStatuses, 8)
	for _, from := range gift.SendStatuses {
		for _, to := range gift.SendStatuses {
			require.Equal(t, allowed[[2]string{string(from), string(to)}], from.CanMove(to), "%s -> %s", from, to)
		}
	}
	require.Equal(t, gift.OrderNone, gift.OrderStateOf(gift.SendReady))
	require.Equal(t, gift.OrderPlaced, gift.OrderStateOf(gift.SendInProduction))
	require.Equal(t, gift.OrderNone, gift.OrderStateOf(gift.SendCancelled))
}

// knownPerson is person n with a sender-supplied address.
func knownPerson(n string) campaign.RecipientInput {
	in := newPerson(n)
	in.AddressMode, in.Address, in.City, in.State, in.Zip = gift.AddressKnown, "1 Main St", "Austin", "TX", "78701"
	return in
}

// eventData decodes the data of the gift's events of typ, oldest first.
func eventData(t *testing.T, w *playbooks, sendID string, typ core.EventType) []map[string]any {
	t.Helper()
	evs := w.env.GiftEvents(t, sendID)
	var out []map[string]any
	for _, e := range evs {
		if e.Type == typ {
			var d map[string]any
			require.NoError(t, json.Unmarshal(e.Data, &d))
			out = append(out, d)
		}
	}
	return out
}

// credits counts the credit entries of sendID.
func credits(t *testing.T, w *playbooks, sendID string) int {
	t.Helper()
	n := 0
	for _, e := range w.env.RequireLedgerConsistent(t, w.owner) {
		if e.Kind == ledger.LedgerCredit && e.SendID != nil && *e.SendID == sendID {
			n++
		}
	}
	return n
}

func TestGiftMovesForward(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 100_000, 10_000) // 9,000 a gift
	w.env.TopUp(t, w.owner, 30_000)

	confirm := w.add(c.ID, "1").Approval.SendID
	res, err := app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: knownPerson("2")})
	require.NoError(t, err)
	known := res.Approval.SendID
	require.Equal(t, int64(12_000), w.balance())

	// Approval gives awaiting_address without an address, ready with one.
	g, err := app.Gifts.Get(ctx, w.key, confirm)
	require.NoError(t, err)
	require.Equal(t, gift.SendAwaitingAddress, g.Status)
	require.Equal(t, gift.OrderNone, g.OrderState)
	g, err = app.Gifts.Get(ctx, w.key, known)
	require.NoError(t, err)
	require.Equal(t, gift.SendReady, g.Status)
	require.Equal(t, "1 Main St", g.Recipient.Address, "a sender-supplied address stays visible")

	// Only the table's moves.
	_, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: confirm, To: gift.SendInProduction})
	e := apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	require.Equal(t, "status", e.Fields[0])
	require.Contains(t, e.Message, "it can become ready, declined, expired, cancelled")
	_, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: known, To: gift.SendReady, Carrier: "UPS"})
	require.Equal(t, "carrier", apptest.RequireCode(t, err, core.CodeValidation).Fields[0])
	_, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: known, To: "approved"})
	require.Equal(t, "status", apptest.RequireCode(t, err, core.CodeValidation).Fields[0])
	_, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: "send_none", To: gift.SendReady})
	require.Equal(t, "send", apptest.RequireCode(t, err, core.CodeNotFound).Fields[0])

	// Production, shipping with tracking, delivery.
	g, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: known, To: gift.SendInProduction, Reason: "order placed"})
	require.NoError(t, err)
	require.Equal(t, gift.SendInProduction, g.Status)
	require.Equal(t, gift.OrderPlaced, g.OrderState)
	require.Equal(t, []map[string]any{{"from": "ready", "to": "in_production", "reason": "order placed"}},
		eventData(t, w, known, core.EventSendStatusChanged))
	require.Equal(t, []map[string]any{{"from": "none", "to": "placed"}}, eventData(t, w, known, core.EventSendOrderChanged))
	_, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: known, To: gift.SendCancelled})
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	_, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: known, To: gift.SendShipped, TrackingURL: "ftp://x"})
	require.Equal(t, "trackingUrl", apptest.RequireCode(t, err, core.CodeValidation).Fields[0])
	g, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: known, To: gift.SendShipped,
		Carrier: "UPS", TrackingNumber: "1Z999", TrackingURL: "https://ups.example/1Z999"})
	require.NoError(t, err)
	require.Equal(t, []string{"UPS", "1Z999", "https://ups.example/1Z999"}, []string{g.Carrier, g.TrackingNumber, g.TrackingURL})
	require.Equal(t, []map[string]any{{"carrier": "UPS", "trackingNumber": "1Z999", "trackingUrl": "https://ups.example/1Z999"}},
		eventData(t, w, known, core.EventSendTrackingChanged))
	// The same status again with new tracking changes only the tracking.
	g, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: known, To: gift.SendShipped, TrackingNumber: "1Z000"})
	require.NoError(t, err)
	require.Equal(t, []string{"UPS", "1Z000"}, []string{g.Carrier, g.TrackingNumber})
	require.Len(t, eventData(t, w, known, core.EventSendTrackingChanged), 2)
	require.Len(t, eventData(t, w, known, core.EventSendStatusChanged), 2)
	g, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: known, To: gift.SendDelivered})
	require.NoError(t, err)
	require.Equal(t, gift.OrderDelivered, g.OrderState)
	_, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: known, To: gift.SendShipped})
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	require.Equal(t, 0, credits(t, w, known), "a delivered gift keeps its cost")

	// Cancelled before production: the cost comes back, once.
	for range 3 {
		g, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: confirm, To: gift.SendCancelled, Reason: "customer asked"})
		require.NoError(t, err)
		require.Equal(t, gift.SendCancelled, g.Status)
	}
	require.Equal(t, int64(21_000), w.balance())
	require.Equal(t, 1, credits(t, w, confirm))
	require.Len(t, eventData(t, w, confirm, core.EventSendStatusChanged), 1)
	require.Empty(t, eventData(t, w, confirm, core.EventSendOrderChanged))
	_, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: confirm, To: gift.SendDeclined})
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	require.Equal(t, int64(21_000), w.balance())

	// Expired keeps the cost (it stays committed).
	exp := w.add(c.ID, "3").Approval.SendID
	_, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: exp, To: gift.SendExpired})
	require.NoError(t, err)
	require.Equal(t, 0, credits(t, w, exp))
	require.Equal(t, int64(12_000), w.balance())
}

// TestGiftMoveRaceCreditsOnce: eight writers cancel or decline the same
// balance-paid gift at once; one move wins, one credit is written, and the
// balance equals the ledger.
func TestGiftMoveRaceCreditsOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 100_000, 10_000)
	w.env.TopUp(t, w.owner, 10_000)
	sendID := w.add(c.ID, "1").Approval.SendID
	require.NotEmpty(t, sendID)
	require.Equal(t, int64(1_000), w.balance())

	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range 8 {
		to := gift.SendCancelled
		if i%2 == 1 {
			to = gift.SendDeclined
		}
		wg.Go(func() {
			_, errs[i] = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: sendID, To: to})
		})
	}
	wg.Wait()
	g, err := app.Gifts.Get(ctx, w.key, sendID)
	require.NoError(t, err)
	for _, err := range errs {
		if err != nil {
			apptest.RequireCode(t, err, core.CodeInvalidRequestState) // the other end won
		}
	}
	require.Contains(t, []gift.SendStatus{gift.SendCancelled, gift.SendDeclined}, g.Status)
	require.Equal(t, 1, credits(t, w, sendID))
	require.Len(t, eventData(t, w, sendID, core.EventSendStatusChanged), 1)
	require.Equal(t, int64(10_000), w.balance())
}
