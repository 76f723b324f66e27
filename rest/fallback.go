package rest

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/giftwell/giftwell/core"
)

// routedMethods are the methods the 405 answer checks for its Allow header.
var routedMethods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// notFound answers a path no route matches: 404 NOT_FOUND.
func (s *server) notFound(w http.ResponseWriter, r *http.Request) {
	s.fail(w, r, core.Errorf(core.CodeNotFound, "no route %s %s; the routes are listed in %s/openapi.json",
		clip(r.Method), clip(routePath(r)), s.baseURL))
}

// clip shortens text echoed from a request to a readable length.
func clip(s string) string {
	const max = 200
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}

// methodNotAllowed answers a path some route matches with another method:
// 405 METHOD_NOT_ALLOWED with an Allow header. A path no method matches (an
// unknown method on an unknown path) is 404.
func (s *server) methodNotAllowed(mux *chi.Mux) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		path := routePath(r)
		var allowed []string
		for _, m := range routedMethods {
			if mux.Match(chi.NewRouteContext(), m, path) {
				allowed = append(allowed, m)
			}
		}
		if len(allowed) == 0 {
			s.notFound(w, r)
			return
		}
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		s.fail(w, r, core.Errorf(core.CodeMethodNotAllowed, "%s is not allowed on %s; allowed: %s",
			clip(r.Method), clip(path), strings.Join(allowed, ", ")))
	}
}

// routePath is the path as this handler routes it: relative to the base
// path when mounted as a chi sub-router or behind http.StripPrefix.
func routePath(r *http.Request) string {
	if rctx := chi.RouteContext(r.Context()); rctx != nil && rctx.RoutePath != "" {
		return rctx.RoutePath
	}
	if r.URL.RawPath != "" {
		return r.URL.RawPath
	}
	return r.URL.Path
}
