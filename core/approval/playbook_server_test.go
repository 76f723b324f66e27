package approval_test

import (
	"context"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/core/notify"
)

// serverApp is an App over w's database as serve runs one: a pool of 24
// connections (the test pool's 4 would make writers wait for connections
// rather than for each other) and a started River client working the
// playbooks' approval jobs while adds insert more, returned for a test
// that stops it early. Both stop with the test.
func (w *playbooks) serverApp() (*giftwell.App, *river.Client[pgx.Tx]) {
	t := w.t
	ctx := context.Background()
	cfg := w.env.App.DB.Config().Copy()
	cfg.MaxConns = 24
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	app := giftwell.New(pool, w.env.App.Config, w.env.Clock, nil)
	app.Ledger.Payments = w.env.App.Ledger.Payments
	workers := river.NewWorkers()
	river.AddWorker(workers, &approval.ScheduledApprovalWorker{Approvals: app.Approvals})
	// People who wait bring an approver email, as in serve.
	river.AddWorker(workers, &notify.NoticeWorker{Notify: app.Notify})
	river.AddWorker(workers, &identity.DeliverEmailWorker{Identity: app.Identity, Sender: identity.LogSender{Log: slog.New(slog.DiscardHandler)}})
	jobs, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Logger:  slog.New(slog.DiscardHandler),
		Workers: workers,
		Queues:  map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 2}},
	})
	require.NoError(t, err)
	app.Jobs = jobs
	require.NoError(t, jobs.Start(ctx))
	t.Cleanup(func() { _ = jobs.Stop(context.Background()) })
	return app, jobs
}
