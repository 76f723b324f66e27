package main

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/internal/clientip"
	"github.com/giftwell/giftwell/internal/httpbody"
	"github.com/giftwell/giftwell/internal/metrics"
	"github.com/giftwell/giftwell/internal/payments"
	"github.com/giftwell/giftwell/internal/reqlog"
	"github.com/giftwell/giftwell/mcp"
	"github.com/giftwell/giftwell/oauth"
	"github.com/giftwell/giftwell/rest"
	"github.com/giftwell/giftwell/tools"
	"github.com/giftwell/giftwell/web"
)

// routeConfig is what routes needs besides the App and the logger.
type routeConfig struct {
	// trustForwardedFor counts throttled requests against the right-most
	// X-Forwarded-For entry (serve --trust-forwarded-for).
	trustForwardedFor bool
	// metrics receives the request counts and serves GET /metrics; nil
	// means a new registry watching app.DB.
	metrics *metrics.Metrics
	// noMetricsRoute leaves GET /metrics off this handler (serve
	// --metrics-addr serves it on its own listener).
	noMetricsRoute bool
	// stripeWebhookSecret verifies POST /stripe/webhook; empty leaves the
	// route off.
	stripeWebhookSecret string
}

// routeOption sets a field of routeConfig.
type routeOption func(*routeConfig)

// withTrustForwardedFor sets routeConfig.trustForwardedFor.
func withTrustForwardedFor(trust bool) routeOption {
	return func(c *routeConfig) { c.trustForwardedFor = trust }
}

// withoutMetricsRoute sets routeConfig.noMetricsRoute.
func withoutMetricsRoute() routeOption {
	return func(c *routeConfig) { c.noMetricsRoute = true }
}

// withMetrics sets routeConfig.metrics.
func withMetrics(m *metrics.Metrics) routeOption {
	return func(c *routeConfig) { c.metrics = m }
}

// routes is the whole HTTP surface: the faces (REST under /api/v1, MCP at
// /mcp and /chatgpt/mcp, the OAuth metadata under /.well-known) and the
// site's own routes (health checks, metrics, the catalog's pictures under
// /catalog/images/ and the web app at the root).
// The faces sit on a plain ServeMux so that each answers every method
// itself, with the spec's envelope.
func routes(app *giftwell.App, log *slog.Logger, opts ...routeOption) http.Handler {
	var cfg routeConfig
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.metrics == nil {
		cfg.metrics = metrics.New()
		if app.DB != nil {
			cfg.metrics.WatchPool(app.DB)
		}
	}
	registry := tools.All(app)
	mux := http.NewServeMux()
	mux.Handle("/api/v1/", restRoute(http.StripPrefix("/api/v1", rest.NewHandler(rest.Config{App: app, Tools: registry, Log: log}))))
	mcpHandler := mcp.NewHandler(mcp.Config{App: app, Tools: registry, Log: log,
		LimitAssistantToolCalls: mcp.AssistantToolCallLimit(app)})
	for _, path := range []string{"/mcp", "/chatgpt/mcp"} {
		mux.Handle(path, labeled("mcp", path, mcpHandler))
		// With a trailing slash, the same endpoint; a path below it gets the
		// MCP face's own 404, never the web app's page.
		mux.Handle(path+"/", labeled("mcp", path, withoutTrailingSlash(path, mcpHandler)))
		mux.Handle(oauth.WellKnownPrefix+path, labeled("oauth", oauth.WellKnownPrefix+path, oauth.ProtectedResourceHandler(app.Config, path)))
		// The assistant endpoint's own issuer metadata, where clients that
		// append the resource path (RFC 8414 §3.1) look for it.
		mux.Handle(oauth.AuthorizationServerPath+path, labeled("oauth", oauth.AuthorizationServerPath+path, oauth.AuthorizationServerHandler(app.Config)))
	}
	mux.Handle(oauth.AuthorizationServerPath, labeled("oauth", oauth.AuthorizationServerPath, oauth.AuthorizationServerHandler(app.Config)))
	var oauthServer http.Handler = oauth.NewServer(app, log).Handler()
	if cfg.trustForwardedFor {
		// The OAuth face counts client registrations by r.RemoteAddr.
		oauthServer = clientip.ForwardedRemoteAddr(oauthServer)
	}
	mux.Handle("/oauth/", labeled("oauth", "/oauth/", oauthServer))
	if !cfg.noMetricsRoute {
		mux.Handle("GET /metrics", labeled("site", "/metrics", cfg.metrics.Handler()))
	}
	if cfg.stripeWebhookSecret != "" {
		mux.Handle("POST /stripe/webhook", labeled("site", "/stripe/webhook", payments.StripeWebhook{Secret: cfg.stripeWebhookSecret, Events: app.Billing, Log: log}))
	}
	mux.Handle(catalog.ImagePathPrefix, labeled("site", catalog.ImagePathPrefix, rest.CatalogImages(rest.Config{App: app, Log: log})))
	mux.Handle("/", site(app, log, cfg))
	return reqlog.RequestID(requestLog(log, cfg.metrics)(httpbody.DrainAfter(mux)))
}

// withoutTrailingSlash hands next a request for path+"/" as a request for
// path; any other request passes unchanged.
func withoutTrailingSlash(path string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == path+"/" {
			r2 := new(http.Request)
			*r2 = *r
			u := *r.URL
			u.Path, u.RawPath = path, ""
			r2.URL = &u
			r = r2
		}
		next.ServeHTTP(w, r)
	})
}

// site serves the routes that are neither API nor MCP: the health checks,
// and every other path is the web app's.
func site(app *giftwell.App, log *slog.Logger, cfg routeConfig) http.Handler {
	r := chi.NewRouter()
	r.Handle("/*", labeled("web", "web", web.NewHandler(web.Config{App: app, Log: log, TrustForwardedFor: cfg.trustForwardedFor})))

	r.With(label("site", "/healthz")).Get("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	r.With(label("site", "/readyz")).Get("/readyz", func(w http.ResponseWriter, req *http.Request) {
		ctx, cancel := context.WithTimeout(req.Context(), 2*time.Second)
		defer cancel()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if err := app.Ready(ctx); err != nil {
			log.ErrorContext(ctx, "not ready", "err", err)
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("database unavailable\n"))
			return
		}
		_, _ = w.Write([]byte("ready\n"))
	})

	return r
}

// labeled names the face and route of the requests h serves, for the
// metrics and the access log; a face may name a finer route itself.
func labeled(face, route string, h http.Handler) http.Handler {
	return label(face, route)(h)
}

// label is labeled as middleware.
func label(face, route string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			reqlog.From(r.Context()).SetRoute(face, route)
			next.ServeHTTP(w, r)
		})
	}
}

// restRoute names REST requests by the route template chi matched
// ("GET /campaigns/{id}"; "unmatched" for a 404), never the raw path. It
// hands the REST router a routing context of its own to fill in, which chi
// then uses as it would its own.
func restRoute(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rctx := chi.NewRouteContext()
		r = r.WithContext(context.WithValue(r.Context(), chi.RouteCtxKey, rctx))
		defer func() {
			route := "unmatched"
			if p := rctx.RoutePattern(); p != "" {
				route = r.Method + " " + p
			}
			reqlog.From(r.Context()).SetRoute("rest", route)
		}()
		next.ServeHTTP(w, r)
	})
}
