package identity

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// RequeueEmails inserts a delivery job for each email still pending that
// has none. Every write queues its email's job in its own transaction, so
// this finds emails only from before they were River jobs (when a poller
// sent them); serve runs it once at start. Delivery jobs are unique while
// unfinished, so an email whose job is queued is skipped.
//
// It returns how many jobs it inserted, or INTERNAL_ERROR.
func (a *Service) RequeueEmails(ctx context.Context) (int, error) {
	n := 0
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		emails, err := db.New(tx).EmailOutboxListPending(ctx)
		if err != nil {
			return core.Internal(err)
		}
		jobs := make([]river.JobArgs, len(emails))
		for i, id := range emails {
			jobs[i] = DeliverEmailArgs{EmailID: id}
		}
		n, err = a.InsertNewJobs(ctx, tx, jobs, emailJobOpts())
		return err
	})
	return n, core.AsCoreError(err)
}
