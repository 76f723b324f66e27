package approval

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
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

// DecideAsAnAddForTest decides person recipientID of playbook campaignID
// as an add that read no prior gift for them does (decideAutoWithPrior
// with prior "", the balance tried): what an add on another instance
// decides when the same person's gift through another playbook was paid
// after its first statement. It returns the decision.
func (a *Service) DecideAsAnAddForTest(ctx context.Context, p core.Principal, campaignID, recipientID string) (state campaign.ApprovalState, reason campaign.ApprovalReason, err error) {
	err = pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		state, reason, err = a.DecideAsAnAddInTxForTest(ctx, tx, p, campaignID, recipientID)
		return err
	})
	return state, reason, core.AsCoreError(err)
}

// DecideAsAnAddInTxForTest is DecideAsAnAddForTest in the caller's tx,
// which holds what the decision locked (the playbook, the person and, when
// it paid, the balance) until the caller ends it.
func (a *Service) DecideAsAnAddInTxForTest(ctx context.Context, tx pgx.Tx, p core.Principal, campaignID, recipientID string) (campaign.ApprovalState, campaign.ApprovalReason, error) {
	q := db.New(tx)
	c, err := campaign.LockRecord(ctx, q, p.WorkspaceID, campaignID)
	if err != nil {
		return "", "", err
	}
	product, err := a.Campaigns.StoredProduct(ctx, c.ProductID)
	if err != nil {
		return "", "", err
	}
	row, err := q.RecipientGetForApprovalLocked(ctx, db.RecipientGetForApprovalLockedParams{CampaignID: c.ID, ID: recipientID})
	if err != nil {
		return "", "", core.Internal(err)
	}
	who, err := campaign.PersonFromRow(row)
	if err != nil {
		return "", "", core.Internal(err)
	}
	mode := campaign.ModeOf(p)
	d, err := a.decideAutoWithPrior(ctx, tx, c, product, who, mode, false, "")
	if err != nil {
		return "", "", err
	}
	if err := a.settleDecision(ctx, tx, c, who.ID, campaign.ApprovalState(row.ApprovalState), campaign.ApprovalReason(row.ApprovalReason), d, mode); err != nil {
		return "", "", err
	}
	return d.state, d.reason, nil
}
