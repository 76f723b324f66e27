package approval

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/sql/db"
)

// AdjustForTest adds cents to the balance of workspaceID in mode as an
// adjustment entry: how queue tests fund a live balance, which the sandbox
// never tops up.
func (a *Service) AdjustForTest(ctx context.Context, workspaceID string, mode core.Mode, cents int64) error {
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		if _, err := a.Ledger.LockBalance(ctx, q, workspaceID, mode); err != nil {
			return err
		}
		_, err := a.Ledger.MoveBalance(ctx, q, ledger.LedgerMove{WorkspaceID: workspaceID, Mode: mode, Kind: ledger.LedgerAdjustment, Cents: cents, Note: "test funds"})
		return err
	})
	return core.AsCoreError(err)
}
