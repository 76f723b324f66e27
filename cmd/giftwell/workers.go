package main

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/core/notify"
	"github.com/giftwell/giftwell/core/webhook"
)

// Background work is River jobs. core inserts emails, scheduled approvals
// and the test-mode fulfilment simulator's steps in the transaction of the
// write they follow (its workers live beside it: core.DeliverEmailWorker,
// core.ScheduledApprovalWorker, core.SimulateFulfilmentWorker); the
// one cron is housekeeping, a River periodic job, so that with several
// instances on one database each run happens once (River elects one leader
// to insert periodic jobs) and a failed run is retried.

// PruneSignInRecordsArgs asks for sign-in attempts older than the throttle window to be removed.
type PruneSignInRecordsArgs struct{}

// Kind names the job.
func (PruneSignInRecordsArgs) Kind() string { return "prune_sign_in_records" }

// PruneSignInRecordsWorker removes sign-in attempts and gift-link guess
// windows no throttle reads any more, and REST answers kept for
// Idempotency-Key retries past their 24 hours.
type PruneSignInRecordsWorker struct {
	river.WorkerDefaults[PruneSignInRecordsArgs]
	app *giftwell.App
}

var _ river.Worker[PruneSignInRecordsArgs] = (*PruneSignInRecordsWorker)(nil)

// Work prunes once.
func (w *PruneSignInRecordsWorker) Work(ctx context.Context, _ *river.Job[PruneSignInRecordsArgs]) error {
	if _, err := w.app.Identity.PruneSignInRecords(ctx); err != nil {
		return fmt.Errorf("prune sign-in records: %w", err)
	}
	if _, err := w.app.GiftLinks.PruneGuesses(ctx); err != nil {
		return fmt.Errorf("prune gift link guesses: %w", err)
	}
	if _, err := w.app.PruneIdempotentRequests(ctx); err != nil {
		return fmt.Errorf("prune idempotent requests: %w", err)
	}
	return nil
}

// addWorkers registers every worker on workers and returns the periodic
// jobs: the email, approval and test-fulfilment workers of core, and
// housekeeping (sign-in records, gift links, unfinished artwork uploads).
func addWorkers(workers *river.Workers, app *giftwell.App, sender identity.EmailSender) []*river.PeriodicJob {
	river.AddWorker(workers, &identity.DeliverEmailWorker{Identity: app.Identity, Sender: sender})
	river.AddWorker(workers, &approval.ScheduledApprovalWorker{Approvals: app.Approvals})
	river.AddWorker(workers, &approval.FundsArrivedWorker{Approvals: app.Approvals})
	river.AddWorker(workers, &approval.SweepScheduledWorker{Approvals: app.Approvals})
	river.AddWorker(workers, &gift.SimulateFulfilmentWorker{Gifts: app.Gifts})
	river.AddWorker(workers, &PruneSignInRecordsWorker{app: app})
	river.AddWorker(workers, &giftlink.ExpireLinksWorker{GiftLinks: app.GiftLinks})
	river.AddWorker(workers, &webhook.DeliverWorker{Webhooks: app.Webhooks})
	river.AddWorker(workers, &artwork.SweepPendingWorker{Artwork: app.Artwork})
	river.AddWorker(workers, &notify.NoticeWorker{Notify: app.Notify})
	river.AddWorker(workers, &notify.DigestWorker{Notify: app.Notify})
	unique := func(args river.JobArgs) func() (river.JobArgs, *river.InsertOpts) {
		return func() (river.JobArgs, *river.InsertOpts) {
			return args, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
				rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
				rivertype.JobStateRetryable, rivertype.JobStateScheduled}}}
		}
	}
	return []*river.PeriodicJob{
		river.NewPeriodicJob(river.PeriodicInterval(time.Hour), unique(PruneSignInRecordsArgs{}), &river.PeriodicJobOpts{RunOnStart: true}),
		river.NewPeriodicJob(river.PeriodicInterval(5*time.Minute), unique(giftlink.ExpireLinksArgs{}), &river.PeriodicJobOpts{RunOnStart: true}),
		river.NewPeriodicJob(river.PeriodicInterval(time.Hour), unique(artwork.SweepPendingArgs{}), &river.PeriodicJobOpts{RunOnStart: true}),
		// People a group commit of a stopped process left scheduled.
		river.NewPeriodicJob(river.PeriodicInterval(time.Minute), unique(approval.SweepScheduledArgs{}), nil),
		// The digest: daily; each workspace's own 20-hour gate keeps a
		// restart from sending a second one.
		river.NewPeriodicJob(river.PeriodicInterval(24*time.Hour), unique(notify.DigestArgs{}), &river.PeriodicJobOpts{RunOnStart: true}),
	}
}
