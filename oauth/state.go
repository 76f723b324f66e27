package oauth

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/ory/fosite"
)

// optionalState is fosite's provider with OAuth 2.1's rule for state
// (draft-ietf-oauth-v2-1 §4.1.1, and the MCP authorization spec, whose
// clients rely on it): a request that uses PKCE with S256 may send no state
// or a short one, since the code verifier already binds the answer to the
// request. Without PKCE S256, fosite's rule stands: a state of at least 8
// characters (MinParameterEntropy), else invalid_state.
//
// fosite has no setting for it (its MinParameterEntropy cannot go below 8,
// and it checks state for every request), but the state check is the last
// step of its authorization-request parser: when it is the only failure,
// everything before it (client, redirect URI, scopes, response type and
// mode) has passed, so the request is taken as parsed. The tests in
// cmd/giftwell/oauth_state_test.go send requests that fail another check as well, to catch a
// fosite version that moves the check.
//
// A state that was sent comes back unchanged; one that was not sent is
// left off the redirect (fosite would add an empty state=).
type optionalState struct{ fosite.OAuth2Provider }

var _ fosite.OAuth2Provider = optionalState{}

// NewAuthorizeRequest implements fosite.OAuth2Provider.
func (p optionalState) NewAuthorizeRequest(ctx context.Context, r *http.Request) (fosite.AuthorizeRequester, error) {
	ar, err := p.OAuth2Provider.NewAuthorizeRequest(ctx, r)
	if err != nil && errors.Is(err, fosite.ErrInvalidState) && usesPKCES256(ar.GetRequestForm()) {
		return ar, nil
	}
	return ar, err
}

// WriteAuthorizeResponse implements fosite.OAuth2Provider.
func (p optionalState) WriteAuthorizeResponse(ctx context.Context, w http.ResponseWriter, ar fosite.AuthorizeRequester, resp fosite.AuthorizeResponder) {
	if ar.GetState() == "" {
		resp.GetParameters().Del("state")
	}
	p.OAuth2Provider.WriteAuthorizeResponse(ctx, w, ar, resp)
}

// WriteAuthorizeError implements fosite.OAuth2Provider.
func (p optionalState) WriteAuthorizeError(ctx context.Context, w http.ResponseWriter, ar fosite.AuthorizeRequester, err error) {
	if ar.GetState() == "" {
		w = noEmptyState{w}
	}
	p.OAuth2Provider.WriteAuthorizeError(ctx, w, ar, err)
}

// usesPKCES256 reports whether an authorization request's form sends a
// code challenge with the S256 method.
func usesPKCES256(form url.Values) bool {
	return form.Get("code_challenge") != "" && form.Get("code_challenge_method") == "S256"
}

// noEmptyState drops an empty state parameter from the Location of the
// error redirect written through it.
type noEmptyState struct{ http.ResponseWriter }

var _ http.ResponseWriter = noEmptyState{}

// WriteHeader implements http.ResponseWriter.
func (w noEmptyState) WriteHeader(status int) {
	if loc := w.Header().Get("Location"); loc != "" {
		if u, err := url.Parse(loc); err == nil {
			q := u.Query()
			if v, ok := q["state"]; ok && len(v) == 1 && v[0] == "" {
				q.Del("state")
				u.RawQuery = q.Encode()
				w.Header().Set("Location", u.String())
			}
		}
	}
	w.ResponseWriter.WriteHeader(status)
}
