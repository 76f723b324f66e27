package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/metrics"
	"github.com/giftwell/giftwell/internal/smtp"
)

// serveConfig is serve's flags after environment fallbacks.
type serveConfig struct {
	addr, siteURL, dataDir, smtpURL string
	// metricsAddr and trustForwardedFor: see serveHygieneFlags.
	metricsAddr       string
	trustForwardedFor bool
	// testFulfilment: see serveTestFulfilmentFlag.
	testFulfilment onOff
	// secretKeyFile: see serveSecretKeyFlag.
	secretKeyFile string
	// webhookAllowURLs and webhookBackoffUnit: see serveWebhookFlags.
	webhookAllowURLs, webhookBackoffUnit string
	// oauthCallbacks: see serveOAuthCallbacksFlag.
	oauthCallbacks []string
	// rateLimitPerMinute: see serveRateLimitFlag.
	rateLimitPerMinute int
	// blobURL: see serveBlobFlag.
	blobURL string
}

// serve runs the service until SIGINT or SIGTERM: HTTP, River, and the
// private PostgreSQL cluster when DATABASE_URL is unset. On the signal it
// stops accepting, lets the requests in flight and the jobs running finish
// within shutdownGrace, and returns nil (exit status 0).
func serve(ctx context.Context, args []string, stdout io.Writer) error {
	cfg, err := serveFlags(args)
	if err != nil {
		return err
	}
	log := newLogger()
	sender, err := emailSender(cfg.smtpURL, log)
	if err != nil {
		return err
	}

	// The lock guards the private cluster only: with DATABASE_URL any
	// number of serve processes share one database.
	if os.Getenv("DATABASE_URL") == "" {
		lock, err := lockServe(cfg.dataDir)
		if err != nil {
			return err
		}
		defer lock.release()
	}

	d, err := openDatabase(ctx, cfg.dataDir)
	if err != nil {
		return err
	}
	if d.MovedTo != "" {
		log.Info("the postgres user cannot reach the data directory, so the private PostgreSQL keeps its files elsewhere",
			"data_dir", cfg.dataDir, "postgres_files", d.MovedTo)
	}
	if d.Cluster != nil && d.Cluster.Attached() {
		// No other serve runs (we hold the lock): a crashed one left it behind.
		d.Cluster.TakeOver()
	}
	defer func() {
		d.Close()
		log.Info("stopped", "private_cluster_stopped", d.Cluster != nil)
	}()
	if err := catalog.SeedCatalog(ctx, d.Pool); err != nil {
		return err
	}

	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	if cfg.siteURL == "" {
		cfg.siteURL = siteURLFor(ln.Addr().String())
	}
	if _, err := url.ParseRequestURI(cfg.siteURL); err != nil {
		return fmt.Errorf("--site-url %q: %w", cfg.siteURL, err)
	}
	secretKey, err := loadSecretKey(cfg.secretKeyPath())
	if err != nil {
		return err
	}
	app := giftwell.New(d.Pool, core.Config{SiteURL: cfg.siteURL, SecretKey: secretKey, OAuthCallbacks: cfg.oauthCallbacks,
		RateLimitPerMinute: cfg.rateLimitPerMinute}, nil, log)
	pay := paymentSettingsFromEnv()
	app.Ledger.Payments = pay.processor(app)
	// Every instance on the database serves a new catalog at once.
	app.Catalog.Listen()
	cfg.configure(app)
	if err := cfg.configureWebhooks(app, log); err != nil {
		return err
	}
	closeBlobs, err := cfg.configureArtwork(ctx, app, log)
	if err != nil {
		return err
	}
	defer closeBlobs()
	m := metrics.New()
	m.WatchPool(d.Pool)
	jobs, err := newJobs(d.Pool, log, app, sender, m.JobMiddleware())
	if err != nil {
		return err
	}

	if d.Cluster != nil {
		if err := firstRun(ctx, app, cfg.dataDir, stdout); err != nil {
			return err
		}
	}

	if n, err := app.RequeueBackgroundWork(ctx); err != nil {
		return err
	} else if n > 0 {
		log.Info("queued background work found without a job", "jobs", n)
	}
	// River runs apart from ctx: SIGTERM stops it gracefully (shutdown),
	// where a cancelled context would cancel the jobs running.
	if err := jobs.Start(context.WithoutCancel(ctx)); err != nil {
		return err
	}

	stopMetrics, err := serveMetrics(cfg.metricsAddr, m, log)
	if err != nil {
		return err
	}
	defer stopMetrics()
	requests := &inFlight{}
	srv := newHTTPServer(requests.wrap(routes(app, log, append(cfg.routeOptions(m), withStripeWebhook(pay.stripeWebhookSecret))...)), defaultServerLimits)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	log.Info("listening", "addr", ln.Addr().String(), "site_url", cfg.siteURL, "private_cluster", d.Cluster != nil)
	returnStartMemory(log)

	select {
	case err = <-served:
	case <-ctx.Done():
	}
	shutdown(srv, jobs, requests, shutdownGrace, log)
	app.Catalog.Close()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// serveFlags parses serve's flags, with their environment fallbacks.
func serveFlags(args []string) (serveConfig, error) {
	fs := newFlags("serve")
	var cfg serveConfig
	fs.StringVar(&cfg.addr, "addr", env("GIFTWELL_ADDR", "127.0.0.1:8080"), "listen address HOST:PORT (env GIFTWELL_ADDR)")
	fs.StringVar(&cfg.siteURL, "site-url", env("GIFTWELL_SITE_URL", ""), "public base URL; default derived from --addr (env GIFTWELL_SITE_URL)")
	fs.StringVar(&cfg.dataDir, "data-dir", dataDir(), "directory of the private PostgreSQL cluster, used without DATABASE_URL (env GIFTWELL_DATA_DIR)")
	fs.StringVar(&cfg.smtpURL, "smtp-url", env("GIFTWELL_SMTP_URL", ""), "smtp://user:pass@host:587?from=... (STARTTLS required unless &starttls=opportunistic or &starttls=off; or smtps://); without it emails are logged (env GIFTWELL_SMTP_URL)")
	serveHygieneFlags(fs, &cfg)
	serveTestFulfilmentFlag(fs, &cfg)
	serveSecretKeyFlag(fs, &cfg)
	serveWebhookFlags(fs, &cfg)
	serveRateLimitFlag(fs, &cfg)
	serveBlobFlag(fs, &cfg)
	callbacks := serveOAuthCallbacksFlag(fs)
	if err := parseNoArgs(fs, joinSwitches(fs, args)); err != nil {
		return serveConfig{}, err
	}
	var err error
	if cfg.oauthCallbacks, err = parseOAuthCallbacks(*callbacks); err != nil {
		return serveConfig{}, err
	}
	if err := cfg.checkRateLimit(); err != nil {
		return serveConfig{}, err
	}
	return cfg, nil
}

// siteURLFor derives the site URL from the address the server listens on; a
// wildcard host becomes 127.0.0.1.
func siteURLFor(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + strings.TrimSuffix(net.JoinHostPort(host, port), "/")
}

// emailSender is SMTP when smtpURL is set, else a sender that logs each email
// (invitation links included: the log is the operator's own).
func emailSender(smtpURL string, log *slog.Logger) (identity.EmailSender, error) {
	if smtpURL == "" {
		return identity.LogSender{Log: log}, nil
	}
	s, err := smtp.NewSender(smtpURL)
	if err != nil {
		return nil, fmt.Errorf("--smtp-url: %w", err)
	}
	return s, nil
}
