package metrics

import (
	"context"
	"errors"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Job outcomes as the giftwell_river_jobs_total counter labels them.
const (
	JobCompleted = "completed"
	JobFailed    = "failed"
	JobCancelled = "cancelled"
	JobSnoozed   = "snoozed"
)

// JobMiddleware returns River worker middleware that counts each worked job
// by kind and outcome. Install it in river.Config.Middleware.
func (m *Metrics) JobMiddleware() rivertype.WorkerMiddleware {
	return &jobMiddleware{jobs: m}
}

// jobMiddleware counts job outcomes around each Work call.
type jobMiddleware struct {
	river.MiddlewareDefaults
	jobs *Metrics
}

var _ rivertype.WorkerMiddleware = (*jobMiddleware)(nil)

// Work runs the job and counts its outcome; a panic counts as failed and
// goes on to River, which records it.
func (j *jobMiddleware) Work(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) (err error) {
	panicked := true
	defer func() {
		outcome := JobOutcome(ctx, err)
		if panicked {
			outcome = JobFailed
		}
		j.jobs.jobs.WithLabelValues(job.Kind, outcome).Inc()
	}()
	err = doInner(ctx)
	panicked = false
	return err
}

// JobOutcome names the outcome of a job whose work returned err: cancelled
// for river.JobCancel or a remote cancellation, snoozed for river.JobSnooze,
// failed for any other error, completed for nil.
func JobOutcome(ctx context.Context, err error) string {
	var cancel *river.JobCancelError
	var snooze *river.JobSnoozeError
	switch {
	case err == nil:
		return JobCompleted
	case errors.As(err, &cancel), errors.Is(context.Cause(ctx), river.ErrJobCancelledRemotely):
		return JobCancelled
	case errors.As(err, &snooze):
		return JobSnoozed
	default:
		return JobFailed
	}
}
