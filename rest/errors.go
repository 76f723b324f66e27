package rest

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/giftwell/giftwell/core"
)

// ErrorEnvelope is the body of every REST error, as the spec's Errors
// section defines it.
type ErrorEnvelope struct {
	Error        string          `json:"error" jsonschema:"what went wrong, naming the offending field where there is one"`
	Code         string          `json:"code" jsonschema:"the machine-readable error code"`
	NextAction   core.NextAction `json:"nextAction" jsonschema:"what to do next"`
	URL          string          `json:"url,omitempty" jsonschema:"a page to hand to a person, when nextAction is open_url"`
	Retryable    bool            `json:"retryable" jsonschema:"true only when retrying can succeed without a person"`
	RetryAfterMs int64           `json:"retryAfterMs,omitempty" jsonschema:"milliseconds to wait before retrying"`
}

// genericInternal is the only text an unexpected error ever shows.
const genericInternal = "an unexpected error occurred"

// known reports whether c is a row of core's code table.
var known = func() map[core.Code]bool {
	m := map[core.Code]bool{}
	for _, c := range core.Codes() {
		m[c] = true
	}
	return m
}()

// envelope translates err into the wire envelope and its status. It is the
// one place the REST face turns errors into responses: anything that is not
// a *core.Error, or carries a code outside the table, is INTERNAL_ERROR with
// a generic message. An open_url error without a url points at the site.
func envelope(err error, siteURL string) (int, ErrorEnvelope) {
	e := core.AsError(err)
	if !known[e.Code] {
		e = core.Internal(e)
	}
	info := e.Code.Info()
	msg := e.Message
	if e.Code == core.CodeInternal {
		msg = genericInternal
	}
	url := e.URL
	if url == "" && info.NextAction == core.OpenURL {
		url = siteURL + "/"
	}
	return info.Status, ErrorEnvelope{
		Error:        msg,
		Code:         e.Code.Wire(),
		NextAction:   info.NextAction,
		URL:          url,
		Retryable:    info.Retryable,
		RetryAfterMs: e.RetryAfterMs,
	}
}

// fail writes err as the error envelope. Internal errors are logged with
// their cause; their text is never shown.
func (s *server) fail(w http.ResponseWriter, r *http.Request, err error) {
	status, env := envelope(err, s.siteURL)
	if status >= http.StatusInternalServerError {
		s.log.ErrorContext(r.Context(), "rest: request failed",
			slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.String("code", env.Code), slog.Any("err", err))
	}
	h := w.Header()
	if env.Code == string(core.CodeAuthRequired) {
		h.Set("WWW-Authenticate", "Bearer")
	}
	if status == http.StatusTooManyRequests {
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
