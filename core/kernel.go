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
	// SecretKey is the service's secret: gift-link tokens (GiftLinkToken)
	// and webhook signing secrets are derived from it, each under its own
	// label, so the database holds neither. At least 32 bytes, kept outside
	// the database; changing it ends every link and webhook secret.
	// NewKernel fills a random one when it is empty, which lasts as long as
	// the process: fine for tests and commands that derive nothing, never
	// for serve, which reads it from its key file.
	SecretKey []byte
	// OAuthCallbacks are the https redirect URIs an OAuth client may
	// register, compared exactly (loopback http and custom application
	// schemes need no listing). nil means connect.DefaultOAuthCallbacks, the
	// published callbacks of Claude and ChatGPT; an empty list allows none.
	OAuthCallbacks []string
	// RateLimitPerMinute is the requests each workspace may make per fixed
	// clock minute, shared by every face, key and connection (the
	// operator's GIFTWELL_RATE_LIMIT_PER_MINUTE); 0 means the spec's
	// RequestsPerWorkspacePerMinute.
	RateLimitPerMinute int
}

// Kernel is what every subject service shares: the database, the clock,
// the site's configuration, the log and the job inserter. Each subject
// package (catalog, identity, connect, ledger, campaign, guide) builds its
// Service on a *Kernel; the root package giftwell wires them together.
type Kernel struct {
	DB     *pgxpool.Pool
	Clock  Clock
	Config Config
	Log    *slog.Logger
	// Jobs inserts River jobs (emails, scheduled approvals, the test-mode
	// fulfilment simulator's steps) in the transaction of the write they
	// follow. It has no default: a write that queues a job without one is
	// INTERNAL_ERROR. cmd/giftwell sets the River client that also works the
	// jobs (built after the Kernel, whose workers need it), or an insert-only
	// one for a command that only writes; tests set an insert-only client.
	Jobs JobInserter
	// Outbox receives every recorded event in its transaction (webhook
	// deliveries); nil records events only.
	Outbox EventOutbox
	// RateClock is the clock rate-limit windows are counted by. nil (the
	// default) is the database's clock, so instances whose own clocks are
	// skewed agree on the minute; a test sets its movable clock.
	RateClock Clock
}

// NewKernel builds the Kernel over a migrated database. A nil clock is the
// system clock; a nil logger discards.
func NewKernel(db *pgxpool.Pool, cfg Config, clock Clock, log *slog.Logger) *Kernel {
	if clock == nil {
		clock = SystemClock{}
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg.SiteURL = strings.TrimRight(cfg.SiteURL, "/")
	if len(cfg.SecretKey) == 0 {
		cfg.SecretKey = RandomBytes(secretKeyBytes)
	}
	return &Kernel{DB: db, Clock: clock, Config: cfg, Log: log}
}
