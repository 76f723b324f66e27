package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/core/webhook"
)

// jobs is the River client that runs Giftwell's background work.
type jobs struct {
	Client *river.Client[pgx.Tx]
}

// webhookWorkers is how many webhook attempts one serve makes at once.
const webhookWorkers = 32

// newJobs builds the River client on pool with every worker (which hold
// app) and the periodic jobs, and makes it app's job inserter: the App is
// built first, its workers next, and the client that needs both last.
// middleware is installed as River's global middleware (the job metrics).
func newJobs(pool *pgxpool.Pool, log *slog.Logger, app *giftwell.App, sender identity.EmailSender, middleware ...rivertype.Middleware) (*jobs, error) {
	workers := river.NewWorkers()
	periodic := addWorkers(workers, app, sender)
	c, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Logger:       riverLogger(log),
		Workers:      workers,
		PeriodicJobs: periodic,
		// Webhook deliveries have their own queue: a slow receiver (at
		// most webhook.MaxInFlightPerEndpoint workers each) never holds up
		// emails, approvals or the simulator.
		Queues: map[string]river.QueueConfig{
			river.QueueDefault: {MaxWorkers: 10},
			webhook.Queue:      {MaxWorkers: webhookWorkers, FetchCooldown: 20 * time.Millisecond},
		},
		Middleware: middleware,
	})
	if err != nil {
		return nil, err
	}
	app.Jobs = c
	return &jobs{Client: c}, nil
}

// insertJobs makes app's job inserter an insert-only River client on pool
// (no workers, no queues), for a command that writes but leaves the work
// to serve's client.
func insertJobs(pool *pgxpool.Pool, app *giftwell.App) error {
	c, err := river.NewClient(riverpgxv5.New(pool), &river.Config{})
	if err != nil {
		return err
	}
	app.Jobs = c
	return nil
}

// Start starts working jobs.
func (j *jobs) Start(ctx context.Context) error { return j.Client.Start(ctx) }

// Stop waits for running jobs to finish, until ctx is done.
func (j *jobs) Stop(ctx context.Context) error { return j.Client.Stop(ctx) }

// riverLogger is log for River's own lines at WARN and above. River reports
// its producers' job counts at INFO every few seconds, which would bury the
// service's own lines; its warnings and errors (a failing job, a lost
// leader) still show.
func riverLogger(log *slog.Logger) *slog.Logger {
	return slog.New(minLevel{Handler: log.Handler(), min: slog.LevelWarn})
}

// minLevel is a slog.Handler that drops records below min.
type minLevel struct {
	slog.Handler
	min slog.Level
}

var _ slog.Handler = minLevel{}

// Enabled reports whether l is at least min and the handler takes it.
func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

// WithAttrs keeps the minimum on the derived handler.
func (h minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{Handler: h.Handler.WithAttrs(attrs), min: h.min}
}

// WithGroup keeps the minimum on the derived handler.
func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{Handler: h.Handler.WithGroup(name), min: h.min}
}
