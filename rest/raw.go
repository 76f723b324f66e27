package rest

import (
	"context"
	"encoding/base64"
	"errors"
	"mime"
	"net/http"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/httpbody"
	"github.com/giftwell/giftwell/tools"
)

// readRaw is readBody for a route that takes a file (tools.Raw): the body
// is at most raw.MaxBytes (413 REQUEST_TOO_LARGE, the connection closed
// after it) and becomes arguments: the bytes base64-encoded, the
// Content-Type's media type, and the mapped headers. The tool judges them.
func (s *server) readRaw(raw *tools.Raw) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, err := httpbody.Read(w, r, raw.MaxBytes)
			if errors.Is(err, httpbody.ErrTooLarge) {
				s.fail(w, r, core.Errorf(core.CodeRequestTooLarge, "the file is larger than %d bytes", raw.MaxBytes))
				return
			}
			if err != nil {
				s.fail(w, r, core.Invalid("body", "could not be read in full"))
				return
			}
			args := map[string]any{raw.BodyField: base64.StdEncoding.EncodeToString(body)}
			mt := strings.TrimSpace(r.Header.Get("Content-Type"))
			if parsed, _, err := mime.ParseMediaType(mt); err == nil {
				mt = parsed
			}
			if mt != "" {
				args[raw.MediaTypeField] = mt
			}
			for _, h := range raw.Headers {
				if v := r.Header.Get(h.Header); v != "" {
					args[h.Field] = v
				}
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), bodyKey{}, args)))
		})
	}
}
