package core

import "errors"

// Envelope is the spec's error body (Errors, Envelope):
// {error, code, nextAction, url?, retryable, retryAfterMs?}. EnvelopeOf builds
// it once; every face writes this same value: REST as the body of a non-2xx
// answer, MCP as a failed tool's structuredContent and text (and as a
// refusal's body), and the web app reads it to draw its pages. The schemas
// that describe the envelope (the OpenAPI documents' Error, every tool's
// output schema) are inferred from this type.
type Envelope struct {
	Error        string     `json:"error" jsonschema:"what went wrong, naming the offending field where there is one"`
	Code         string     `json:"code" jsonschema:"the machine-readable error code"`
	NextAction   NextAction `json:"nextAction" jsonschema:"what to do next"`
	URL          string     `json:"url,omitempty" jsonschema:"a page to hand to a person, when nextAction is open_url"`
	Retryable    bool       `json:"retryable" jsonschema:"true only when retrying can succeed without a person"`
	RetryAfterMs int64      `json:"retryAfterMs,omitempty" jsonschema:"milliseconds to wait before retrying"`
	// Field is the first request field the error names, "" when it names
	// none. The spec's envelope has no such member, so it is never written
	// (json:"-"): it is for a face that places the message next to a form
	// field, as the web app does.
	Field string `json:"-"`
}

// InternalMessage is the only text an unexpected error ever shows.
const InternalMessage = "an unexpected error occurred"

// NextActions lists the envelope's nextAction values in the spec's order.
func NextActions() []NextAction {
	return []NextAction{OpenURL, RereadAndRetry, AskUser, RetryLater, Stop}
}

// errNil stands in for a nil error handed to EnvelopeOf: a programming
// error, shown like any other unexpected one.
var errNil = errors.New("core: EnvelopeOf called with a nil error")

// EnvelopeOf is the one translation of an error into what callers see: the
// HTTP status and the envelope, from the code table. A *Error keeps its
// message, url and retryAfterMs; its code is written as its wire code
// (Code.Wire). Anything that is not a *Error, a *Error with a code outside
// the table, and INTERNAL_ERROR itself become INTERNAL_ERROR with only the
// generic InternalMessage; internal reports that case, so that the face
// logs the cause (which is never shown). Every open_url code carries a url:
// the error's own, or else the site's home page, siteURL + "/".
func EnvelopeOf(err error, siteURL string) (status int, env Envelope, internal bool) {
	if err == nil {
		err = errNil
	}
	e := AsError(err)
	if _, known := codeTable[e.Code]; !known || e.Code == CodeInternal {
		internal = true
		e = &Error{Code: CodeInternal, Message: InternalMessage}
	}
	info := codeTable[e.Code]
	env = Envelope{
		Error:        e.Message,
		Code:         e.Code.Wire(),
		NextAction:   info.NextAction,
		URL:          e.URL,
		Retryable:    info.Retryable,
		RetryAfterMs: e.RetryAfterMs,
	}
	if len(e.Fields) > 0 {
		env.Field = e.Fields[0]
	}
	if env.URL == "" && info.NextAction == OpenURL {
		env.URL = siteURL + "/"
	}
	return info.Status, env, internal
}
