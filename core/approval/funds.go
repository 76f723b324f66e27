package approval

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/sql/db"
)

// maxFundsRedecide bounds one run of RedecideForFunds: the roster bound of
// every playbook of a workspace is far above what one top-up pays for, and
// a run that meets the bound queues its job again.
const maxFundsRedecide = 2000

// FundsArrivedWorker works ledger.FundsArrivedArgs jobs: when a top-up
// arrives it decides again the people who waited only for funds
// (RedecideForFunds) and records how many it approved ({"approved": n}).
type FundsArrivedWorker struct {
	river.WorkerDefaults[ledger.FundsArrivedArgs]
	Approvals *Service
}

var _ river.Worker[ledger.FundsArrivedArgs] = (*FundsArrivedWorker)(nil)

// FundsArrivedOutput is the output a FundsArrivedArgs job records.
type FundsArrivedOutput struct {
	// Approved is how many waiting people auto-approve approved.
	Approved int `json:"approved"`
}

// Work decides again the people of the job's workspace who waited for funds.
func (w *FundsArrivedWorker) Work(ctx context.Context, job *river.Job[ledger.FundsArrivedArgs]) error {
	n, err := w.Approvals.RedecideForFunds(ctx, job.Args.WorkspaceID, job.Args.Mode)
	if oerr := river.RecordOutput(ctx, FundsArrivedOutput{Approved: n}); oerr != nil {
		w.Approvals.Log.WarnContext(ctx, "funds arrived: record output", "err", oerr)
	}
	return err
}

// RedecideForFunds decides again, in the workspace's queue order, every
// person of workspaceID who waits only for funds (low_balance) on an active
// playbook whose auto-approve rule is on, after funds arrived in its balance
// of mode. Each person is decided in their own transaction exactly as an
// add is (decideAuto, waiting for the balance lock): auto_approved with
// send.auto_approved, or waiting for another reason with
// playbook.person_waiting. A person the balance still cannot pay for keeps
// waiting for funds unchanged, and people after them are still tried, since
// a cheaper gift may fit. Nothing happens when the workspace is in the
// other mode now: its queue is the other mode's. It returns how many people
// it approved and the first error met (the others are still tried).
func (a *Service) RedecideForFunds(ctx context.Context, workspaceID string, mode core.Mode) (int, error) {
	q := db.New(a.DB)
	ws, err := q.WorkspaceGetByID(ctx, workspaceID)
	if core.IsNoRows(err) {
		return 0, nil
	}
	if err != nil {
		return 0, core.Internal(err)
	}
	if core.Mode(ws.Mode) != mode {
		return 0, nil
	}
	people, err := q.RecipientWaitingForFunds(ctx, db.RecipientWaitingForFundsParams{WorkspaceID: workspaceID, MaxPeople: maxFundsRedecide})
	if err != nil {
		return 0, core.Internal(err)
	}
	var (
		approved int
		firstErr error
	)
	for _, who := range people {
		if ctx.Err() != nil {
			return approved, ctx.Err()
		}
		ok, err := a.redecideForFunds(ctx, workspaceID, who.CampaignID, who.ID, mode)
		if err != nil {
			a.Log.Error("funds arrived: decide", "campaign", who.CampaignID, "recipient", who.ID, "err", err)
			if firstErr == nil {
				firstErr = fmt.Errorf("recipient %s: %w", who.ID, err)
			}
			continue
		}
		if ok {
			approved++
		}
	}
	return approved, firstErr
}

// redecideForFunds decides one person who waited for funds, in one
// transaction: the playbook shared with adds, the person locked while they
// still wait for funds. approved is true when auto-approve paid for them.
func (a *Service) redecideForFunds(ctx context.Context, workspaceID, campaignID, recipientID string, mode core.Mode) (approved bool, _ error) {
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		c, err := lockPlaybookShared(ctx, q, workspaceID, campaignID)
		if err != nil {
			return core.AsCoreError(err)
		}
		if !c.Mode.Playbook() || c.Status != campaign.StatusActive || !c.AutoApprove.On() {
			return nil
		}
		row, err := q.RecipientLockWaitingForFunds(ctx, db.RecipientLockWaitingForFundsParams{CampaignID: c.ID, ID: recipientID})
		if core.IsNoRows(err) {
			return nil // decided meanwhile
		}
		if err != nil {
			return core.Internal(err)
		}
		who, err := campaign.PersonFromRow(row)
		if err != nil {
			return core.Internal(err)
		}
		product, err := a.Campaigns.StoredProduct(ctx, c.ProductID)
		if err != nil {
			return err
		}
		d, err := a.decideAuto(ctx, tx, c, product, who, mode, true)
		if err != nil {
			return err
		}
		approved = d.state == campaign.ApprovalAutoApproved
		return a.settleDecision(ctx, tx, c, who.ID, campaign.ApprovalWaiting, campaign.ReasonLowBalance, d, mode)
	})
	if err != nil {
		return false, core.AsCoreError(err)
	}
	return approved, nil
}
