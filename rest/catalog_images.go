package rest

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
)

// imageCSP is the Content-Security-Policy of a picture: opened on its own,
// nothing in it runs or loads anything.
const imageCSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

// CatalogImages returns the handler of the catalog's pictures, which the
// binary mounts at catalog.ImagePathPrefix on the site's root (a product's
// image field is a path under the site URL, not under /api/v1). It is
// public, as GET /catalog is, and counts against no rate limit: the
// pictures are served from memory.
//
// GET or HEAD of a product's image address answers the picture with its
// media type, nosniff, a Content-Security-Policy that lets nothing run and
// Cache-Control immutable for a year (the address carries the content's
// hash). An older address of the same product (unhashed, an earlier hash,
// another extension) answers 302 to the current one, cached five minutes.
// Any other name is 404 NOT_FOUND and another method 405, in the error
// envelope.
func CatalogImages(cfg Config) http.Handler {
	s := &server{app: cfg.App, log: cfg.Log}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if cfg.App != nil {
		s.siteURL, s.baseURL = cfg.App.Config.SiteURL, cfg.App.Config.BaseURL()
	}
	return s.recoverPanics(http.HandlerFunc(s.catalogImage))
}

func (s *server) catalogImage(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		s.fail(w, r, core.Errorf(core.CodeMethodNotAllowed, "%s is not allowed on %s; allowed: GET, HEAD", clip(r.Method), clip(r.URL.Path)))
		return
	}
	name, ok := strings.CutPrefix(r.URL.Path, catalog.ImagePathPrefix)
	if !ok || strings.Contains(name, "/") {
		s.fail(w, r, core.Errorf(core.CodeNotFound, "no catalog picture at %s; a product's image field gives its picture's address", clip(r.URL.Path)))
		return
	}
	m, err := s.app.Catalog.ImageAt(r.Context(), name)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	if !m.Current {
		h.Set("Cache-Control", "public, max-age=300")
		http.Redirect(w, r, m.Path, http.StatusFound)
		return
	}
	h.Set("Content-Type", m.Image.ContentType)
	h.Set("Content-Security-Policy", imageCSP)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("ETag", `"`+m.Image.Hash+`"`)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(m.Image.Data))
}
