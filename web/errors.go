package web

import (
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-chi/chi/v5/middleware"

	"github.com/giftwell/giftwell/core"
)

// problem is an error as a page shows it.
type problem struct {
	// Status is the response's HTTP status.
	Status int
	// Field is the form field the message belongs next to; "" puts it at
	// the top of the page.
	Field string
	// Message is the sentence shown to the person.
	Message string
	// Others are the problems with the form's other fields, when core
	// reported several at once (every one is shown together).
	Others []fieldProblem
	// URL is the envelope's url: the page where a person acts on the error.
	// Every open_url code has one, as on the other faces.
	URL string
	// RetryAfterSeconds is set for a throttled request and an outage.
	RetryAfterSeconds int64
}

// genericProblem is all a person sees of an unexpected error.
const genericProblem = "Something went wrong on our side. Please try again in a moment."

// unavailableProblem is what a person sees while the database (or another
// service Giftwell needs) is unavailable; unavailableAfterPost adds, after a
// form was sent, that it may have been saved.
const (
	unavailableProblem   = "Giftwell is briefly unavailable; try again shortly."
	unavailableAfterPost = " If you were saving a change, reload the page to see whether it was saved before sending it again."
)

// problemFor is the web app's one translation of errors. It reads core's
// envelope (core.EnvelopeOf), the one every face writes, and words it for a
// person: the status and the message, placed next to the envelope's field
// when that field is one of the form's fields, and made a sentence. An
// internal error, and any 5xx, is logged with its cause and shown only as a
// generic message. An outage (core.Unavailable) is 503 "briefly
// unavailable; try again shortly" with Retry-After, and after a form's post
// says the change may have been saved (core.AfterWrite).
func (h *handler) problemFor(r *http.Request, err error, formFields ...string) *problem {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		err = core.AfterWrite(err)
	}
	status, env, internal := core.EnvelopeOf(err, h.app.Config.SiteURL)
	if internal || status >= http.StatusInternalServerError {
		h.log.ErrorContext(r.Context(), "web: request failed",
			slog.String("request_id", middleware.GetReqID(r.Context())),
			slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.String("code", string(core.ErrorCode(err))), slog.Any("err", err))
		if core.Unavailable(err) {
			p := &problem{Status: status, Message: unavailableProblem, RetryAfterSeconds: max(1, (env.RetryAfterMs+999)/1000)}
			if env.NextAction == core.RereadAndRetry {
				p.Message += unavailableAfterPost
			}
			return p
		}
		return &problem{Status: status, Message: genericProblem}
	}
	p := &problem{Status: status, Message: env.Error, URL: env.URL}
	if env.Code == string(core.CodePolicyChanged) {
		// The page's hidden version is stale: say so in the person's words.
		p.Message = "This campaign changed since you loaded it, so nothing was changed. Review it again below, then decide."
		return p
	}
	if env.Field != "" && slices.Contains(formFields, env.Field) {
		p.Field = env.Field
		p.Message = strings.TrimPrefix(p.Message, p.Field+": ")
		if e := core.AsError(err); e != nil && len(e.Fields) > 1 {
			p.splitFields(env.Error, e.Fields, formFields)
		}
	}
	p.Message = sentence(p.Message)
	if env.Code == string(core.CodeRateLimit) {
		p.RetryAfterSeconds = max(1, (env.RetryAfterMs+999)/1000)
		if !strings.Contains(strings.ToLower(p.Message), "try again") {
			p.Message += " Try again in " + waitText(p.RetryAfterSeconds) + "."
		}
	}
	return p
}

// writeRetryAfter sets Retry-After for a throttled or unavailable answer.
func (p *problem) writeRetryAfter(w http.ResponseWriter) {
	if p.RetryAfterSeconds > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(p.RetryAfterSeconds, 10))
	}
}

// sentence starts s with a capital letter and ends it with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "!") {
		s += "."
	}
	return s
}

// waitText says how long to wait: "30 seconds", "1 minute", "5 minutes".
func waitText(seconds int64) string {
	switch {
	case seconds == 1:
		return "1 second"
	case seconds < 60:
		return fmt.Sprintf("%d seconds", seconds)
	case seconds < 120:
		return "1 minute"
	default:
		return fmt.Sprintf("%d minutes", (seconds+59)/60)
	}
}

// fieldProblem is one field's problem of a form that had several.
type fieldProblem struct {
	Field, Message string
}

// splitFields spreads msg, listing several fields' problems ("a: x; b: y",
// as core.Problems writes them), over the form's fields: the one about
// Field becomes Message, the others go to Others. A part about a field the
// form does not have stays with the part before it.
func (p *problem) splitFields(msg string, fields, formFields []string) {
	type part struct{ field, text string }
	var parts []part
	for _, piece := range strings.Split(msg, "; ") {
		if f, text, ok := strings.Cut(piece, ": "); ok && slices.Contains(fields, f) {
			parts = append(parts, part{f, text})
			continue
		}
		if len(parts) == 0 {
			parts = append(parts, part{"", piece})
			continue
		}
		parts[len(parts)-1].text += "; " + piece
	}
	for _, pt := range parts {
		switch {
		case pt.field == p.Field:
			p.Message = pt.text
		case slices.Contains(formFields, pt.field):
			p.Others = append(p.Others, fieldProblem{Field: pt.field, Message: sentence(pt.text)})
		}
	}
}
