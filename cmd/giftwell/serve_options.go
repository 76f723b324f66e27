package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
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
	srv := newHTTPServer(mux, defaultServerLimits)
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

// envBool is the environment variable parsed as a boolean (1, true, yes,
// on and their opposites), or def when it is unset, empty or not a boolean.
func envBool(name string, def bool) bool {
	if b, ok := parseSwitch(env(name, "")); ok {
		return b
	}
	return def
}

// parseSwitch parses v as a boolean: yes and on, no and off, and whatever
// strconv.ParseBool takes; ok is false for anything else.
func parseSwitch(v string) (b, ok bool) {
	switch v {
	case "yes", "on":
		return true, true
	case "no", "off":
		return false, true
	}
	b, err := strconv.ParseBool(v)
	return b, err == nil
}

// onOff is a boolean flag that also takes on and off (parseSwitch); given
// alone (--name) it is on.
type onOff bool

var _ flag.Value = (*onOff)(nil)

// String is on or off.
func (o *onOff) String() string {
	if o != nil && bool(*o) {
		return "on"
	}
	return "off"
}

// Set parses v with parseSwitch.
func (o *onOff) Set(v string) error {
	b, ok := parseSwitch(v)
	if !ok {
		return fmt.Errorf("%q is neither on nor off", v)
	}
	*o = onOff(b)
	return nil
}

// IsBoolFlag lets the flag be given alone.
func (o *onOff) IsBoolFlag() bool { return true }

// joinSwitches lets a switch flag (onOff) take its value as the next
// argument, as the usage shows it (--test-fulfilment off), besides
// --name=off and --name alone (on): the flag package reads a boolean flag's
// next argument as a positional one.
func joinSwitches(fs *flag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		name := strings.TrimLeft(a, "-")
		if f := fs.Lookup(name); f != nil && strings.HasPrefix(a, "-") && i+1 < len(args) {
			if _, isSwitch := f.Value.(*onOff); isSwitch {
				if _, ok := parseSwitch(args[i+1]); ok {
					out = append(out, a+"="+args[i+1])
					i++
					continue
				}
			}
		}
		out = append(out, a)
	}
	return out
}

// serveTestFulfilmentFlag adds --test-fulfilment: whether the test-mode
// fulfilment simulator walks test gifts to delivered (on by default).
func serveTestFulfilmentFlag(fs *flag.FlagSet, cfg *serveConfig) {
	cfg.testFulfilment = onOff(envBool("GIFTWELL_TEST_FULFILMENT", true))
	fs.Var(&cfg.testFulfilment, "test-fulfilment",
		"on or off: in test mode, walk each gift with a known address from ready to delivered over a few minutes, with a fake carrier and tracking number (env GIFTWELL_TEST_FULFILMENT)")
}

// configure sets what serve's flags say on app's services.
func (cfg serveConfig) configure(app *giftwell.App) {
	app.Gifts.TestFulfilment = bool(cfg.testFulfilment)
}

// serveRateLimitFlag adds --rate-limit-per-minute: the requests each
// workspace may make per clock minute (the spec's 240 by default), so an
// operator can raise it to measure throughput.
func serveRateLimitFlag(fs *flag.FlagSet, cfg *serveConfig) {
	def := core.RequestsPerWorkspacePerMinute
	if n, err := strconv.Atoi(env("GIFTWELL_RATE_LIMIT_PER_MINUTE", "")); err == nil {
		def = n
	}
	fs.IntVar(&cfg.rateLimitPerMinute, "rate-limit-per-minute", def,
		"requests per workspace per clock minute, shared by REST, MCP and the web app (env GIFTWELL_RATE_LIMIT_PER_MINUTE)")
}

// checkRateLimit refuses a rate limit below 1.
func (cfg serveConfig) checkRateLimit() error {
	if cfg.rateLimitPerMinute < 1 {
		return fmt.Errorf("--rate-limit-per-minute %d: must be at least 1", cfg.rateLimitPerMinute)
	}
	return nil
}
