package core

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/sql/db"
)

// RequeueBackgroundWork inserts the River jobs of work that may have none:
// a delivery job for each email still pending, and an approval job for
// each active playbook with scheduled people. Every write queues its job in
// its own transaction, so this finds work only from before emails and
// approvals were River jobs (when a poller found them); serve runs it once
// at start. It never queues work twice: both jobs are unique while
// unfinished, so an email or playbook whose job is queued is skipped.
//
// It returns how many jobs it inserted, or INTERNAL_ERROR.
func (a *App) RequeueBackgroundWork(ctx context.Context) (int, error) {
	n := 0
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		emails, err := q.EmailOutboxListPending(ctx)
		if err != nil {
			return Internal(err)
		}
		for _, id := range emails {
			res, err := a.insertJob(ctx, tx, DeliverEmailArgs{EmailID: id}, emailJobOpts())
			if err != nil {
				return err
			}
			if !res.UniqueSkippedAsDuplicate {
				n++
			}
		}
		playbooks, err := q.CampaignListScheduled(ctx)
		if err != nil {
			return Internal(err)
		}
		for _, c := range playbooks {
			res, err := a.insertJob(ctx, tx, ScheduledApprovalArgs{WorkspaceID: c.WorkspaceID, CampaignID: c.ID}, scheduledApprovalOpts())
			if err != nil {
				return err
			}
			if !res.UniqueSkippedAsDuplicate {
				n++
			}
		}
		return nil
	})
	return n, asCoreError(err)
}
