package apptest

import (
	"context"
	"math"
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
// whole ledger (however long) never went below zero. It returns the
// ledger's newest entries, as the ledger tool shows them (at most
// ledger.MaxLedgerLimit).
func (e *Env) RequireLedgerConsistent(t testing.TB, p core.Principal) []ledger.LedgerEntry {
	t.Helper()
	ctx := context.Background()
	entries, err := e.App.Ledger.Ledger(ctx, p, ledger.MaxLedgerLimit)
	require.NoError(t, err)
	all, err := db.New(e.App.DB).LedgerEntryList(ctx, db.LedgerEntryListParams{WorkspaceID: p.WorkspaceID, Mode: string(p.Mode), RowLimit: math.MaxInt32})
	require.NoError(t, err)
	b, err := e.App.Approvals.Balance(ctx, p)
	require.NoError(t, err)
	sum, err := db.New(e.App.DB).LedgerSum(ctx, db.LedgerSumParams{WorkspaceID: p.WorkspaceID, Mode: string(p.Mode)})
	require.NoError(t, err)
	require.Equal(t, sum, b.Cents, "balance = sum(ledger)")
	var running int64
	for _, en := range slices.Backward(all) {
		running += en.Cents
		require.GreaterOrEqual(t, running, int64(0), "the balance went below zero at %s", en.ID)
	}
	require.Equal(t, b.Cents, running)
	return entries
}
