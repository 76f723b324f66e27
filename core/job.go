package core

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Background work is River jobs inserted in the transaction of the write
// they follow (a transactional outbox): the job exists exactly when the
// write commits, and a rolled-back write leaves no job behind. core inserts
// jobs only with InsertTx, never on the pool.

// JobInserter inserts River jobs in the caller's transaction. A
// *river.Client[pgx.Tx] is one; an insert-only client (no workers, no
// queues) is enough for a process that only writes.
//
//	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{})
//	...
//	app.Jobs = client
type JobInserter interface {
	// InsertTx inserts a job for args in tx; it becomes visible to workers
	// when tx commits.
	InsertTx(ctx context.Context, tx pgx.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

var _ JobInserter = (*river.Client[pgx.Tx])(nil)

// errNoJobInserter is the wiring error of a Kernel without Jobs.
var errNoJobInserter = errors.New("core: App.Jobs is nil: the App was built without a River client to insert jobs")

// InsertJob inserts the job args in tx through Kernel.Jobs. It returns
// INTERNAL_ERROR when the insert fails or when no inserter is wired.
func (a *Kernel) InsertJob(ctx context.Context, tx pgx.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	if a.Jobs == nil {
		return nil, Internal(errNoJobInserter)
	}
	res, err := a.Jobs.InsertTx(ctx, tx, args, opts)
	if err != nil {
		return nil, Internal(err)
	}
	return res, nil
}

// InsertNewJobs inserts a job for each of args in tx through InsertJob and
// returns how many were new: a unique job already queued is skipped and not
// counted. It returns INTERNAL_ERROR as InsertJob does.
func (a *Kernel) InsertNewJobs(ctx context.Context, tx pgx.Tx, args []river.JobArgs, opts *river.InsertOpts) (int, error) {
	n := 0
	for _, job := range args {
		res, err := a.InsertJob(ctx, tx, job, opts)
		if err != nil {
			return n, err
		}
		if !res.UniqueSkippedAsDuplicate {
			n++
		}
	}
	return n, nil
}

// UnfinishedJobStates are the states in which a unique job counts as
// already queued: one not yet finished (completed, cancelled or discarded).
func UnfinishedJobStates() []rivertype.JobState {
	return []rivertype.JobState{
		rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
		rivertype.JobStateRetryable, rivertype.JobStateScheduled,
	}
}
