package core

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/sql/db"
)

// AdjustForTest adds cents to the balance of workspaceID in mode as an
// adjustment entry: how queue tests fund a live balance, which the sandbox
// never tops up.
func (a *App) AdjustForTest(ctx context.Context, workspaceID string, mode Mode, cents int64) error {
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		if _, err := a.lockBalance(ctx, q, workspaceID, mode); err != nil {
			return err
		}
		_, err := a.moveBalance(ctx, q, ledgerMove{workspaceID: workspaceID, mode: mode, kind: LedgerAdjustment, cents: cents, note: "test funds"})
		return err
	})
	return asCoreError(err)
}
