package approval

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/sql/db"
)

// RequeueScheduledApprovals inserts an approval job for each active
// playbook with scheduled people that has none: people from before
// approvals were River jobs (when a poller decided them), and people an
// add handed to a group commit in a process that stopped before the group
// decided them. serve runs it once at start. Approval jobs are unique
// while unfinished, so a playbook whose job is queued is skipped.
//
// It returns how many jobs it inserted, or INTERNAL_ERROR.
func (a *Service) RequeueScheduledApprovals(ctx context.Context) (int, error) {
	return a.requeue(ctx, func(q *db.Queries) ([]campaign.ScheduledApprovalArgs, error) {
		rows, err := q.CampaignListScheduled(ctx)
		out := make([]campaign.ScheduledApprovalArgs, len(rows))
		for i, r := range rows {
			out[i] = campaign.ScheduledApprovalArgs{WorkspaceID: r.WorkspaceID, CampaignID: r.ID}
		}
		return out, err
	})
}

// staleAfter is how long a person may stay scheduled before the sweep
// queues their playbook's job: a group decides them in moments, so one
// scheduled this long was left by a process that stopped.
const staleAfter = time.Minute

// RequeueStaleScheduled is RequeueScheduledApprovals for the playbooks
// with people scheduled more than a minute ago (SweepScheduledWorker's
// work): on a running service, only people a stopped process left.
func (a *Service) RequeueStaleScheduled(ctx context.Context) (int, error) {
	return a.requeue(ctx, func(q *db.Queries) ([]campaign.ScheduledApprovalArgs, error) {
		rows, err := q.CampaignListScheduledBefore(ctx, a.Clock.Now().Add(-staleAfter))
		out := make([]campaign.ScheduledApprovalArgs, len(rows))
		for i, r := range rows {
			out[i] = campaign.ScheduledApprovalArgs{WorkspaceID: r.WorkspaceID, CampaignID: r.ID}
		}
		return out, err
	})
}

// requeue inserts the approval jobs list names that are not queued.
func (a *Service) requeue(ctx context.Context, list func(q *db.Queries) ([]campaign.ScheduledApprovalArgs, error)) (int, error) {
	n := 0
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		playbooks, err := list(db.New(tx))
		if err != nil {
			return core.Internal(err)
		}
		jobs := make([]river.JobArgs, len(playbooks))
		for i, args := range playbooks {
			jobs[i] = args
		}
		n, err = a.InsertNewJobs(ctx, tx, jobs, campaign.ScheduledApprovalOpts())
		return err
	})
	return n, core.AsCoreError(err)
}

// SweepScheduledArgs is the periodic job that queues the approval jobs of
// people left scheduled (RequeueStaleScheduled).
type SweepScheduledArgs struct{}

// Kind names the job.
func (SweepScheduledArgs) Kind() string { return "sweep_scheduled" }

// SweepScheduledWorker works SweepScheduledArgs jobs.
type SweepScheduledWorker struct {
	river.WorkerDefaults[SweepScheduledArgs]
	Approvals *Service
}

var _ river.Worker[SweepScheduledArgs] = (*SweepScheduledWorker)(nil)

// Work sweeps once.
func (w *SweepScheduledWorker) Work(ctx context.Context, _ *river.Job[SweepScheduledArgs]) error {
	_, err := w.Approvals.RequeueStaleScheduled(ctx)
	return err
}
