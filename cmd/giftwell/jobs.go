package main

import (
	"context"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/giftwell/giftwell/core"
)

// jobs is the River client that runs Giftwell's background work.
type jobs struct {
	Client  *river.Client[pgx.Tx]
	working bool
}

// newJobs builds the River client on pool with every worker and periodic
// job: housekeeping today, webhook deliveries and expiries in later issues.
// middleware is installed as River's global middleware (the job metrics).
func newJobs(pool *pgxpool.Pool, log *slog.Logger, app *core.App, sender core.EmailSender, middleware ...rivertype.Middleware) (*jobs, error) {
	workers := river.NewWorkers()
	periodic := housekeeping(workers, app, sender)
	c, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Logger:       log,
		Workers:      workers,
		PeriodicJobs: periodic,
		Queues:       map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 10}},
		Middleware:   middleware,
	})
	if err != nil {
		return nil, err
	}
	return &jobs{Client: c, working: true}, nil
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
