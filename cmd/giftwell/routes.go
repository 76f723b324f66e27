package main

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/mcp"
	"github.com/giftwell/giftwell/oauth"
	"github.com/giftwell/giftwell/rest"
	"github.com/giftwell/giftwell/tools"
	"github.com/giftwell/giftwell/web"
)

// routes is the whole HTTP surface: the faces (REST under /api/v1, MCP at
// /mcp and /chatgpt/mcp, the OAuth metadata under /.well-known) and the
// site's own routes (health checks and the web app at the root). The faces
// sit on a plain ServeMux so that each answers every method itself, with the
// spec's envelope.
func routes(app *core.App, log *slog.Logger) http.Handler {
	registry := tools.All(app)
	mux := http.NewServeMux()
	mux.Handle("/api/v1/", http.StripPrefix("/api/v1", rest.NewHandler(rest.Config{App: app, Tools: registry, Log: log})))
	mcpHandler := mcp.NewHandler(mcp.Config{App: app, Tools: registry, Log: log})
	for _, path := range []string{"/mcp", "/chatgpt/mcp"} {
		mux.Handle(path, mcpHandler)
		mux.Handle(oauth.WellKnownPrefix+path, oauth.ProtectedResourceHandler(app.Config, path))
		// The assistant endpoint's own issuer metadata, where clients that
		// append the resource path (RFC 8414 §3.1) look for it.
		mux.Handle(oauth.AuthorizationServerPath+path, oauth.AuthorizationServerHandler(app.Config))
	}
	mux.Handle(oauth.AuthorizationServerPath, oauth.AuthorizationServerHandler(app.Config))
	mux.Handle("/oauth/", oauth.NewServer(app, log).Handler())
	mux.Handle("/", site(app, log))
	return middleware.RequestID(requestLog(log)(mux))
}

// site serves the routes that are neither API nor MCP: the health checks,
// and every other path is the web app's.
func site(app *core.App, log *slog.Logger) http.Handler {
	r := chi.NewRouter()
	r.Handle("/*", web.NewHandler(web.Config{App: app, Log: log}))

	r.Get("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	r.Get("/readyz", func(w http.ResponseWriter, req *http.Request) {
		ctx, cancel := context.WithTimeout(req.Context(), 2*time.Second)
		defer cancel()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if err := app.Ready(ctx); err != nil {
			log.ErrorContext(ctx, "not ready", "request_id", middleware.GetReqID(ctx), "err", err)
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("database unavailable\n"))
			return
		}
		_, _ = w.Write([]byte("ready\n"))
	})

	return r
}
