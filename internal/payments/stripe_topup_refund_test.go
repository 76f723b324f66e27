package payments_test

import (
	"context"
	"log/slog"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// A top-up refunded from Stripe's dashboard is not silently ignored: its
// charge.refunded event names the top-up for staff (the event's outcome
// and an error log); the balance is left for staff to adjust.
func TestStripeTopupRefundIsReportedForStaff(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStripeEnv(t)
	app := s.env.App
	logs := &apptest.LogBuffer{}
	app.Billing.Log = slog.New(slog.NewTextHandler(logs, nil))
	ts, err := app.Ledger.CreateBalanceTopup(ctx, s.owner, ledger.TopupParams{Cents: 5_000, IdempotencyKey: "stripe-topup-refund"})
	require.NoError(t, err)
	row, err := db.New(app.DB).TopupGetBySession(ctx, ts.SessionID)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, s.completed(t, "evt_top_r1", ts.SessionID, row.ID, "pi_top_r"))

	require.Equal(t, http.StatusOK, s.deliver(t, "evt_top_ref", "charge.refunded", map[string]any{"id": "ch_top", "object": "charge", "payment_intent": "pi_top_r", "amount_refunded": 5_000}))
	var outcome string
	require.NoError(t, app.DB.QueryRow(ctx, `SELECT outcome FROM processor_events WHERE id = 'evt_top_ref'`).Scan(&outcome))
	require.Contains(t, outcome, "topup_refunded: top-up "+row.ID)
	require.Contains(t, logs.String(), "a top-up was refunded at the payment processor")
	require.Contains(t, logs.String(), row.ID)
	b, err := app.Approvals.Balance(ctx, s.owner)
	require.NoError(t, err)
	require.Equal(t, int64(5_000), b.Cents, "staff adjust the balance; nothing changes by itself")
	s.env.RequireLedgerConsistent(t, s.owner)
}
