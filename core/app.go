package core

import (
	"log/slog"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Config is what the services need to know about where they run.
type Config struct {
	// SiteURL is the service's web address, without a trailing slash
	// (e.g. http://127.0.0.1:8080). Review, queue and top-up URLs start with it.
	SiteURL string
}

// App is the domain at the centre: every rule and every transaction of
// Giftwell is a method on App or on one of its services. Faces (MCP, REST,
// web) hold an *App and call it; App never imports them.
type App struct {
	DB     *pgxpool.Pool
	Clock  Clock
	Config Config
	Log    *slog.Logger
	// Catalog serves the gift catalog from memory; see CatalogStore.
	Catalog *CatalogStore
	// Payments creates top-up sessions (internal/payments has the local
	// sandbox). It has no default: a top-up without one is INTERNAL_ERROR.
	Payments PaymentProcessor
	// Jobs inserts River jobs (emails, scheduled approvals) in the
	// transaction of the write they follow. It has no default: a write that
	// queues a job without one is INTERNAL_ERROR. cmd/giftwell sets the River
	// client that also works the jobs (built after the App, whose workers
	// need it); tests set an insert-only client.
	Jobs JobInserter
}

// NewApp builds an App over a migrated database. It loads the catalog into
// memory. A nil clock is the system clock; a nil logger discards.
func NewApp(db *pgxpool.Pool, cfg Config, clock Clock, log *slog.Logger) *App {
	if clock == nil {
		clock = SystemClock{}
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg.SiteURL = strings.TrimRight(cfg.SiteURL, "/")
	return &App{DB: db, Clock: clock, Config: cfg, Log: log, Catalog: NewCatalogStore(db).WithClock(clock)}
}
