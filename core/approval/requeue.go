package approval

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/sql/db"
)

// RequeueScheduledApprovals inserts an approval job for each active
// playbook with scheduled people that has none. Every write queues its job
// in its own transaction, so this finds people only from before approvals
// were River jobs (when a poller decided them); serve runs it once at
// start. Approval jobs are unique while unfinished, so a playbook whose job
// is queued is skipped.
//
// It returns how many jobs it inserted, or INTERNAL_ERROR.
func (a *Service) RequeueScheduledApprovals(ctx context.Context) (int, error) {
	n := 0
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		playbooks, err := db.New(tx).CampaignListScheduled(ctx)
		if err != nil {
			return core.Internal(err)
		}
		jobs := make([]river.JobArgs, len(playbooks))
		for i, c := range playbooks {
			jobs[i] = campaign.ScheduledApprovalArgs{WorkspaceID: c.WorkspaceID, CampaignID: c.ID}
		}
		n, err = a.InsertNewJobs(ctx, tx, jobs, campaign.ScheduledApprovalOpts())
		return err
	})
	return n, core.AsCoreError(err)
}
