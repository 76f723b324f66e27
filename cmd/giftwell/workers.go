package main

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/giftwell/giftwell/core"
)

// Housekeeping runs as River periodic jobs, so that with several instances
// on one database each run happens once (River elects one leader to insert
// periodic jobs) and a failed run is retried.

// DeliverEmailsArgs asks for the email outbox to be delivered.
type DeliverEmailsArgs struct{}

// Kind names the job.
func (DeliverEmailsArgs) Kind() string { return "deliver_emails" }

// DeliverEmailsWorker sends pending outbox emails through the configured sender.
type DeliverEmailsWorker struct {
	river.WorkerDefaults[DeliverEmailsArgs]
	app    *core.App
	sender core.EmailSender
}

// Work delivers one round of pending emails.
func (w *DeliverEmailsWorker) Work(ctx context.Context, _ *river.Job[DeliverEmailsArgs]) error {
	if _, err := w.app.DeliverEmails(ctx, w.sender); err != nil {
		return fmt.Errorf("deliver emails: %w", err)
	}
	return nil
}

// PruneSignInRecordsArgs asks for sign-in attempts older than the throttle window to be removed.
type PruneSignInRecordsArgs struct{}

// Kind names the job.
func (PruneSignInRecordsArgs) Kind() string { return "prune_sign_in_records" }

// PruneSignInRecordsWorker removes sign-in attempts no throttle reads any more.
type PruneSignInRecordsWorker struct {
	river.WorkerDefaults[PruneSignInRecordsArgs]
	app *core.App
}

// Work prunes once.
func (w *PruneSignInRecordsWorker) Work(ctx context.Context, _ *river.Job[PruneSignInRecordsArgs]) error {
	if _, err := w.app.PruneSignInRecords(ctx); err != nil {
		return fmt.Errorf("prune sign-in records: %w", err)
	}
	return nil
}

// ApproveScheduledArgs asks for the scheduled playbook people to be decided.
type ApproveScheduledArgs struct{}

// Kind names the job.
func (ApproveScheduledArgs) Kind() string { return "approve_scheduled" }

// ApproveScheduledWorker runs auto-approve for people added while another
// approval held the balance, and for backfills.
type ApproveScheduledWorker struct {
	river.WorkerDefaults[ApproveScheduledArgs]
	app *core.App
}

// Work decides every scheduled person once.
func (w *ApproveScheduledWorker) Work(ctx context.Context, _ *river.Job[ApproveScheduledArgs]) error {
	if _, err := w.app.RunScheduledApprovals(ctx); err != nil {
		return fmt.Errorf("approve scheduled: %w", err)
	}
	return nil
}

// scheduledInterval is how often scheduled playbook people are decided.
const scheduledInterval = 20 * time.Second

// emailInterval is how often the outbox is delivered.
const emailInterval = 15 * time.Second

// housekeeping registers the workers and their periodic schedules.
func housekeeping(workers *river.Workers, app *core.App, sender core.EmailSender) []*river.PeriodicJob {
	river.AddWorker(workers, &DeliverEmailsWorker{app: app, sender: sender})
	river.AddWorker(workers, &PruneSignInRecordsWorker{app: app})
	river.AddWorker(workers, &ApproveScheduledWorker{app: app})
	unique := func(args river.JobArgs) func() (river.JobArgs, *river.InsertOpts) {
		return func() (river.JobArgs, *river.InsertOpts) {
			return args, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
				rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
				rivertype.JobStateRetryable, rivertype.JobStateScheduled}}}
		}
	}
	return []*river.PeriodicJob{
		river.NewPeriodicJob(river.PeriodicInterval(emailInterval), unique(DeliverEmailsArgs{}), &river.PeriodicJobOpts{RunOnStart: true}),
		river.NewPeriodicJob(river.PeriodicInterval(time.Hour), unique(PruneSignInRecordsArgs{}), &river.PeriodicJobOpts{RunOnStart: true}),
		river.NewPeriodicJob(river.PeriodicInterval(scheduledInterval), unique(ApproveScheduledArgs{}), &river.PeriodicJobOpts{RunOnStart: true}),
	}
}
