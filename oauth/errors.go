package oauth

import (
	"net/http"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ory/fosite"

	"github.com/giftwell/giftwell/core"
)

// errInvalidTarget is RFC 8707's error for a missing or unknown resource.
var errInvalidTarget = &fosite.RFC6749Error{
	ErrorField:       "invalid_target",
	DescriptionField: "The resource parameter must be the Giftwell MCP URL ({mcp_url} or {chatgpt_mcp_url}).",
	CodeField:        http.StatusBadRequest,
}

// oauthError renders core's refusal of what an authorization or token
// request asks for as an OAuth error: invalid_target for the resource
// (RFC 8707), otherwise scopeErr (invalid_scope, or access_denied at
// consent) with core's message as its hint.
func oauthError(err error, scopeErr *fosite.RFC6749Error) *fosite.RFC6749Error {
	e := core.AsError(err)
	if slices.Contains(e.Fields, "resource") {
		return errInvalidTarget
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
