package rest

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// dataEnvelope is every JSON success body: {data: payload}.
type dataEnvelope struct {
	Data any `json:"data"`
}

// respond writes {data: payload} with status.
func (s *server) respond(w http.ResponseWriter, r *http.Request, status int, payload any) {
	body, err := json.Marshal(dataEnvelope{Data: payload})
	if err != nil {
		s.fail(w, r, core.Internal(err))
		return
	}
	writeBody(w, status, body)
}

// download writes the file a route that Produces one returned, as an
// attachment of the route's media type (text types in UTF-8).
func (s *server) download(w http.ResponseWriter, r *http.Request, op *operation, out any) {
	f, ok := out.(tools.File)
	if !ok {
		s.fail(w, r, core.Internal(fmt.Errorf("rest: %s produces %s but returned %T, not a tools.File", op.ID, op.Produces, out)))
		return
	}
	contentType := op.Produces
	if f.Type != "" {
		contentType = f.Type
	}
	if strings.HasPrefix(contentType, "text/") {
		contentType += "; charset=utf-8"
	}
	disposition := "attachment"
	if f.Inline {
		disposition = "inline"
	}
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Disposition", contentDisposition(disposition, f.Name))
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	// A file is never a page: nothing in it runs or loads anything.
	h.Set("Content-Security-Policy", "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
	w.WriteHeader(op.Status)
	_, _ = w.Write(f.Body)
}

// contentDisposition is the Content-Disposition header for a file named
// name: RFC 6266, with the RFC 2231 form for a name that is not plain
// ASCII.
func contentDisposition(disposition, name string) string {
	if v := mime.FormatMediaType(disposition, map[string]string{"filename": name}); v != "" {
		return v
	}
	return disposition
}
