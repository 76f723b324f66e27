package rest

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/giftwell/giftwell/core"
)

// fail is the REST face's one error translator: it writes err as core's
// envelope (core.EnvelopeOf) with its status, adding the REST headers:
// WWW-Authenticate on AUTH_REQUIRED and Retry-After on 429 and 503. Errors with a
// 5xx status are logged with their cause; an internal error's text is
// never shown.
func (s *server) fail(w http.ResponseWriter, r *http.Request, err error) {
	status, env, _ := core.EnvelopeOf(err, s.siteURL)
	if status >= http.StatusInternalServerError {
		s.log.ErrorContext(r.Context(), "rest: request failed",
			slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.String("code", env.Code), slog.Any("err", err))
	}
	h := w.Header()
	if env.Code == string(core.CodeAuthRequired) {
		h.Set("WWW-Authenticate", "Bearer")
	}
	if status == http.StatusTooManyRequests || (status == http.StatusServiceUnavailable && env.RetryAfterMs > 0) {
		h.Set("Retry-After", strconv.FormatInt(retryAfterSeconds(env.RetryAfterMs), 10))
	}
	body, _ := json.Marshal(env) // an envelope of strings, bools and ints always marshals
	writeBody(w, status, body)
}

// retryAfterSeconds is retryAfterMs rounded up to whole seconds, at least 1.
func retryAfterSeconds(ms int64) int64 {
	s := (ms + 999) / 1000
	if s < 1 {
		return 1
	}
	return s
}

// writeBody writes a JSON body with status. The API's answers are never
// cached.
func writeBody(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
