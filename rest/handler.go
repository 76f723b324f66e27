package rest

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// Config is what the REST face needs.
type Config struct {
	// App is the domain; its Config.SiteURL is the site origin browsers must
	// send and the server of the OpenAPI documents.
	App *giftwell.App
	// Tools is the registry, usually tools.All(App); every tool with a
	// Route becomes a route.
	Tools []tools.Tool
	// Log receives internal errors with their causes; nil discards.
	Log *slog.Logger
	// Authenticate resolves a bearer token to a principal. Nil means
	// App.Authenticate. It is the seam for a face that resolves credentials
	// of its own kind (OAuth connections) and for tests.
	Authenticate func(ctx context.Context, bearer string) (core.Principal, error)
}

// server holds what the handlers share.
type server struct {
	app     *giftwell.App
	log     *slog.Logger
	auth    func(ctx context.Context, bearer string) (core.Principal, error)
	siteURL string
	baseURL string
	// origin is the site's origin, normalised.
	origin string
	docs   *documents
}

// NewHandler returns the REST API's handler, with routes relative to the
// base path /api/v1 (see the package documentation for mounting). The
// routes are the registry's tools with a Route (the REST-only operations
// among them: GET /catalog, GET /session, GET /workspaces, ...) and the
// OpenAPI documents at /openapi.json (3.1) and /openapi-3.0.json (3.0.3).
// Every response is JSON, {data: ...} or the error envelope, except the
// files of routes that produce one (a CSV export).
//
// NewHandler panics when the registry routes two tools to one method and
// path or names a path parameter a tool's input lacks: programming errors
// that the package's tests catch.
func NewHandler(cfg Config) http.Handler {
	ops, err := operations(cfg.Tools)
	if err != nil {
		panic(err)
	}
	s := &server{app: cfg.App, log: cfg.Log, auth: cfg.Authenticate}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	var site core.Config
	if cfg.App != nil {
		site = cfg.App.Config
	}
	if s.auth == nil && cfg.App != nil {
		s.auth = cfg.App.Connect.Authenticate
	}
	s.siteURL, s.baseURL = site.SiteURL, site.BaseURL()
	s.origin = normalizeOrigin(site.SiteURL)
	s.docs = newDocuments(cfg.Tools, site)

	r := chi.NewRouter()
	r.Use(s.recoverPanics, s.checkOrigin)
	for i := range ops {
		op := &ops[i]
		var chain []func(http.Handler) http.Handler
		if op.Credentials != tools.CredentialsNone {
			chain = append(chain, s.authenticate(op))
		}
		switch {
		case op.Raw != nil:
			chain = append(chain, s.readRaw(op.Raw))
		case op.bind.body:
			chain = append(chain, s.readBody)
		case refusesBody(op):
			chain = append(chain, s.refuseBody)
		}
		if takesIdempotencyKey(op) {
			chain = append(chain, s.idempotent)
		}
		r.With(chain...).Method(op.Method, op.Path, s.handler(op))
	}
	r.Get("/openapi.json", s.serveDocument(false))
	r.Get("/openapi-3.0.json", s.serveDocument(true))
	r.NotFound(s.notFound)
	r.MethodNotAllowed(s.methodNotAllowed(r))
	return r
}
