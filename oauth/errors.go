package oauth

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ory/fosite"

	"github.com/giftwell/giftwell/core"
)

// invalidTarget is RFC 8707's error for a missing or unknown resource,
// naming the site's two MCP URLs a grant can be bound to.
func invalidTarget(cfg core.Config) *fosite.RFC6749Error {
	return &fosite.RFC6749Error{
		ErrorField:       "invalid_target",
		DescriptionField: fmt.Sprintf("The resource parameter must be the Giftwell MCP URL (%s).", strings.Join(cfg.OAuthResources(), " or ")),
		CodeField:        http.StatusBadRequest,
	}
}

// oauthError renders core's refusal of what an authorization or token
// request asks for as an OAuth error: invalid_target for the resource
// (RFC 8707), otherwise scopeErr (invalid_scope, or access_denied at
// consent) with core's message as its hint.
func (s *Server) oauthError(err error, scopeErr *fosite.RFC6749Error) *fosite.RFC6749Error {
	e := core.AsError(err)
	if slices.Contains(e.Fields, "resource") {
		return invalidTarget(s.app.Config)
	}
	return scopeErr.WithHint(sentence(e))
}

// sentence is core's message as a sentence for a person: without the field
// path it starts with, capitalised, with a full stop.
func sentence(e *core.Error) string {
	msg := e.Message
	for _, f := range e.Fields {
		msg = strings.TrimPrefix(msg, f+": ")
	}
	r, n := utf8.DecodeRuneInString(msg)
	msg = string(unicode.ToUpper(r)) + msg[n:]
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}

// unavailableText is what a client or a person reads while the database (or
// another service Giftwell needs) is unavailable.
const unavailableText = "Giftwell is briefly unavailable; try again shortly."

// An outage is never a credential error: fosite turns any failed client
// lookup into invalid_client (which tells a client to drop its
// registration) and other storage failures into server_error 500, so the
// endpoints look through fosite's error to core's classification
// (core.Unavailable) before they answer. The token, revocation and
// registration endpoints then answer server_error with 503 and
// Retry-After; the authorization endpoint redirects with
// temporarily_unavailable once the client and its redirect URI are known,
// and shows a 503 page before that.

// writeUnavailable writes the JSON answer of the token, revocation and
// registration endpoints while the database is unavailable: server_error
// (RFC 6749 §5.2 has no other code for it) with 503 and Retry-After.
func writeUnavailable(w http.ResponseWriter) {
	w.Header().Set("Retry-After", strconv.Itoa((core.UnavailableRetryAfterMs+999)/1000))
	writeOAuthError(w, http.StatusServiceUnavailable, "server_error", unavailableText)
}

// errTemporarilyUnavailable is the authorization endpoint's redirect while
// the database is unavailable.
var errTemporarilyUnavailable = fosite.ErrTemporarilyUnavailable.WithHint(unavailableText)
