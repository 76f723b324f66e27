package apptest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/payments"
)

// NewInstance returns another App on the Env's database, as a second
// `giftwell serve` sharing it would be: its own connection pool, the same
// configuration (site URL, secret key, rate limit), its own clock (nil:
// the Env's) and no RateClock, so it counts rate-limit windows by the
// database's clock. Nothing in memory is shared with the Env's App.
func (e *Env) NewInstance(t testing.TB, clock core.Clock) *giftwell.App {
	t.Helper()
	pool, err := pgxpool.NewWithConfig(context.Background(), e.App.DB.Config())
	if err != nil {
		t.Fatalf("apptest: connect another instance: %v", err)
	}
	t.Cleanup(pool.Close)
	if clock == nil {
		clock = e.Clock
	}
	app := giftwell.New(pool, e.App.Config, clock, nil)
	app.Jobs = NewJobs(t, app.DB)
	app.Ledger.Payments = payments.SandboxProcessor{SiteURL: app.Config.SiteURL}
	t.Cleanup(app.Catalog.Close)
	return app
}
