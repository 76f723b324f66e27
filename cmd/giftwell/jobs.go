package main

import (
	"context"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
)

// jobs is the River client. River will not start a client without workers,
// so until a later issue registers one the client is insert-only: it serves
// InsertTx, and Start and Stop do nothing.
type jobs struct {
	Client  *river.Client[pgx.Tx]
	working bool
}

// registerWorkers adds the background workers and returns how many it added.
// Later issues register theirs here (river.AddWorker(w, &SomeWorker{...})).
func registerWorkers(w *river.Workers) int {
	return 0
}

// newJobs builds the River client on pool.
func newJobs(pool *pgxpool.Pool, log *slog.Logger) (*jobs, error) {
	workers := river.NewWorkers()
	cfg := &river.Config{Logger: log}
	working := registerWorkers(workers) > 0
	if working {
		cfg.Workers = workers
		cfg.Queues = map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 10}}
	}
	c, err := river.NewClient(riverpgxv5.New(pool), cfg)
	if err != nil {
		return nil, err
	}
	return &jobs{Client: c, working: working}, nil
}

// Start starts working jobs, when there are workers.
func (j *jobs) Start(ctx context.Context) error {
	if !j.working {
		return nil
	}
	return j.Client.Start(ctx)
}

// Stop waits for running jobs to finish, until ctx is done.
func (j *jobs) Stop(ctx context.Context) error {
	if !j.working {
		return nil
	}
	return j.Client.Stop(ctx)
}
