package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/giftwell/giftwell/internal/metrics"
)

// serveHygieneFlags adds serve's operational flags: where /metrics is
// served, and whether a reverse proxy's X-Forwarded-For is trusted.
func serveHygieneFlags(fs *flag.FlagSet, cfg *serveConfig) {
	fs.StringVar(&cfg.metricsAddr, "metrics-addr", env("GIFTWELL_METRICS_ADDR", ""),
		"serve GET /metrics on this HOST:PORT only, instead of on --addr (env GIFTWELL_METRICS_ADDR)")
	fs.BoolVar(&cfg.trustForwardedFor, "trust-forwarded-for", envBool("GIFTWELL_TRUST_FORWARDED_FOR", false),
		"count sign-in and registration throttles against the right-most X-Forwarded-For entry; set only behind a proxy that writes it (env GIFTWELL_TRUST_FORWARDED_FOR)")
}

// routeOptions are the routes options serve's flags ask for, with m as the
// metrics registry.
func (cfg serveConfig) routeOptions(m *metrics.Metrics) []routeOption {
	opts := []routeOption{withMetrics(m), withTrustForwardedFor(cfg.trustForwardedFor)}
	if cfg.metricsAddr != "" {
		opts = append(opts, withoutMetricsRoute())
	}
	return opts
}

// serveMetrics serves GET /metrics on addr when it is set, and returns the
// function that stops it. With no addr it does nothing (routes serves
// /metrics on the main listener).
func serveMetrics(addr string, m *metrics.Metrics, log *slog.Logger) (stop func(), err error) {
	if addr == "" {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics listener", "err", err)
		}
	}()
	log.Info("metrics listening", "addr", ln.Addr().String())
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}, nil
}

// envBool is the environment variable parsed as a boolean (1, true, yes
// and their opposites), or def when it is unset, empty or not a boolean.
func envBool(name string, def bool) bool {
	v := env(name, "")
	switch v {
	case "yes", "on":
		return true
	case "no", "off":
		return false
	}
	if b, err := strconv.ParseBool(v); err == nil {
		return b
	}
	return def
}
