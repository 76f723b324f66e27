package ledger

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/giftwell/giftwell/core"
)

// FundsArrivedArgs is the River job a top-up inserts in the transaction that
// credits it: the people of the workspace who waited only for funds on an
// auto-approving playbook are decided again (approval.FundsArrivedWorker),
// so that adding funds approves them without an agent adding them again.
type FundsArrivedArgs struct {
	WorkspaceID string    `json:"workspace_id" river:"unique"`
	Mode        core.Mode `json:"mode" river:"unique"`
}

// Kind names the job.
func (FundsArrivedArgs) Kind() string { return "funds_arrived" }

// fundsArrived queues, in tx, the job that decides again the people who
// waited for funds in workspaceID's balance of mode. One job that has not
// started is enough for many top-ups; one already running may have passed
// people by before tx's funds, so a second follows it.
func (a *Service) fundsArrived(ctx context.Context, tx pgx.Tx, workspaceID string, mode core.Mode) error {
	args := FundsArrivedArgs{WorkspaceID: workspaceID, Mode: mode}
	res, err := a.InsertJob(ctx, tx, args, &river.InsertOpts{
		UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: core.UnfinishedJobStates()},
	})
	if err != nil {
		return err
	}
	if res.UniqueSkippedAsDuplicate && res.Job != nil && res.Job.State == rivertype.JobStateRunning {
		_, err = a.InsertJob(ctx, tx, args, nil)
	}
	return err
}
