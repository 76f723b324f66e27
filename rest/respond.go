package rest

import (
	"encoding/json"
	"fmt"
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
	if strings.HasPrefix(contentType, "text/") {
		contentType += "; charset=utf-8"
	}
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", f.Name))
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(op.Status)
	_, _ = w.Write(f.Body)
}
