package apptest

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/sql/db"
)

// TopUp creates and completes a sandbox top-up of cents for p.
func (e *Env) TopUp(t testing.TB, p core.Principal, cents int64) ledger.TopupSession {
	t.Helper()
	s, err := e.App.Ledger.CreateBalanceTopup(context.Background(), p, ledger.TopupParams{Cents: cents, IdempotencyKey: "topup-" + core.RandomHex(6)})
	require.NoError(t, err)
	require.NoError(t, e.App.Ledger.CompleteTopup(context.Background(), s.SessionID))
	return s
}

// RequireLedgerConsistent checks that the stored balance of p's workspace
// and mode equals the sum of its ledger and that, replayed in order, the
// ledger never went below zero. It returns the ledger, newest first.
func (e *Env) RequireLedgerConsistent(t testing.TB, p core.Principal) []ledger.LedgerEntry {
	t.Helper()
	ctx := context.Background()
	entries, err := e.App.Ledger.Ledger(ctx, p, ledger.MaxLedgerLimit)
	require.NoError(t, err)
	require.Less(t, len(entries), ledger.MaxLedgerLimit, "the test reads the whole ledger")
	b, err := e.App.Campaigns.Balance(ctx, p)
	require.NoError(t, err)
	sum, err := db.New(e.App.DB).LedgerSum(ctx, db.LedgerSumParams{WorkspaceID: p.WorkspaceID, Mode: string(p.Mode)})
	require.NoError(t, err)
	require.Equal(t, sum, b.Cents, "balance = sum(ledger)")
	var running int64
	for _, en := range slices.Backward(entries) {
		running += en.Cents
		require.GreaterOrEqual(t, running, int64(0), "the balance went below zero at %s", en.ID)
	}
	require.Equal(t, b.Cents, running)
	return entries
}
