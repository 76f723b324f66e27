package ledger

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// DebitForTest runs debit in a transaction of its own.
func (a *Service) DebitForTest(ctx context.Context, workspaceID string, mode core.Mode, cents int64, sendID, campaignID string) (string, error) {
	var id string
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		var err error
		id, err = a.Debit(ctx, db.New(tx), workspaceID, mode, cents, sendID, campaignID)
		return err
	})
	return id, core.AsCoreError(err)
}

// CreditForTest runs credit in a transaction of its own.
func (a *Service) CreditForTest(ctx context.Context, workspaceID string, mode core.Mode, cents int64, sendID, campaignID string) (string, error) {
	var id string
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		var err error
		id, err = a.Credit(ctx, db.New(tx), workspaceID, mode, cents, sendID, campaignID, "")
		return err
	})
	return id, core.AsCoreError(err)
}
