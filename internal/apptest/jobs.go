package apptest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertest"
	"github.com/riverqueue/river/rivertype"

	"github.com/giftwell/giftwell"
)

// NewJobs returns an insert-only River client on pool (no workers, no
// queues: it never works a job) for App.Jobs. River's tables are migrated
// in every test database.
func NewJobs(t testing.TB, pool *pgxpool.Pool) *river.Client[pgx.Tx] {
	t.Helper()
	c, err := river.NewClient(riverpgxv5.New(pool), &river.Config{})
	if err != nil {
		t.Fatalf("apptest: river client: %v", err)
	}
	return c
}

// Jobs lists the jobs of kind in app's database that River has not
// finished (available, scheduled, retryable, pending or running), oldest
// first.
func Jobs(t testing.TB, app *giftwell.App, kind string) []*rivertype.JobRow {
	t.Helper()
	return JobsIn(t, app, kind,
		rivertype.JobStateAvailable, rivertype.JobStateScheduled, rivertype.JobStateRetryable,
		rivertype.JobStatePending, rivertype.JobStateRunning)
}

// JobsIn lists the jobs of kind in app's database in the given states
// (every state when none is given), oldest first.
func JobsIn(t testing.TB, app *giftwell.App, kind string, states ...rivertype.JobState) []*rivertype.JobRow {
	t.Helper()
	params := river.NewJobListParams().Kinds(kind).OrderBy(river.JobListOrderByID, river.SortOrderAsc).First(10_000)
	if len(states) > 0 {
		params = params.States(states...)
	}
	res, err := NewJobs(t, app.DB).JobList(context.Background(), params)
	if err != nil {
		t.Fatalf("apptest: list %s jobs: %v", kind, err)
	}
	return res.Jobs
}

// WorkJobs works, once each and oldest first, every job of worker's kind
// that is waiting (available, scheduled or retryable), at once rather than
// when due, through River's own executor (rivertest): the job is marked
// running with its attempt counted, the worker's Work runs, and River
// records the outcome (completed, or retryable at the worker's NextRetry,
// or discarded after MaxAttempts) as a started client would. It returns
// the jobs as River left them.
func WorkJobs[T river.JobArgs](t testing.TB, app *giftwell.App, worker river.Worker[T]) []*rivertype.JobRow {
	t.Helper()
	ctx := context.Background()
	var kind T
	rows := JobsIn(t, app, kind.Kind(), rivertype.JobStateAvailable, rivertype.JobStateScheduled, rivertype.JobStateRetryable)
	w := rivertest.NewWorker(t, riverpgxv5.New(nil), &river.Config{}, worker)
	out := make([]*rivertype.JobRow, 0, len(rows))
	for _, row := range rows {
		tx, err := app.DB.Begin(ctx)
		if err != nil {
			t.Fatalf("apptest: begin: %v", err)
		}
		// A worker's error is no failure here: River records it on the job
		// (retryable or discarded), where tests read it.
		res, err := w.WorkJob(ctx, t, tx, row)
		if res == nil {
			t.Fatalf("apptest: work %s job %d: %v", kind.Kind(), row.ID, err)
		}
		if err := tx.Commit(ctx); err != nil {
			t.Fatalf("apptest: commit worked %s job %d: %v", kind.Kind(), row.ID, err)
		}
		out = append(out, res.Job)
	}
	return out
}
