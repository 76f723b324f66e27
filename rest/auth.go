package rest

import (
	"net/http"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/tools"
)

// authenticate resolves the request's credentials for op and puts the
// principal in the context. The credential is the Authorization header or,
// without one, the web app's session cookie. A request without credentials
// is anonymous on an optional route and 401 AUTH_REQUIRED on a required one;
// a bad, revoked, expired or unknown credential is 401 wherever it is sent;
// a sign-in connection is 401 on a route whose tool does not accept
// connections (core.Config.AuthorizeRESTRoute decides from Route.Connections); a
// cookie on a state-changing method without a same-origin Origin (or
// Sec-Fetch-Site: same-origin) is 403 ORIGIN_FORBIDDEN. The request is
// counted against its workspace's rate limit in the authentication's own
// statement (the bucket core.RateBucketFor gives the route); over the limit
// it is 429 RATE_LIMIT, and a counted request's answer carries the
// RateLimit headers.
func (s *server) authenticate(op *operation) func(http.Handler) http.Handler {
	bucket := core.RateBucketFor(op.Method, op.Path)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			charge := &core.RateCharge{Bucket: bucket}
			r = r.WithContext(core.WithRateCharge(r.Context(), charge))
			p, err := s.principal(r, op)
			charge.SetHeaders(w.Header())
			if err != nil {
				s.fail(w, r, err)
				return
			}
			next.ServeHTTP(w, r.WithContext(core.WithPrincipal(r.Context(), p)))
		})
	}
}

func (s *server) principal(r *http.Request, op *operation) (core.Principal, error) {
	headers := r.Header.Values("Authorization")
	if len(headers) == 0 {
		if c, err := r.Cookie(identity.SessionCookieName); err == nil && c.Value != "" {
			return s.sessionPrincipal(r, c.Value)
		}
		if op.Credentials == tools.CredentialsOptional {
			return core.Principal{}, nil
		}
		return core.Principal{}, s.app.Config.AuthRequired("send a workspace key as Authorization: Bearer <key>")
	}
	if len(headers) > 1 {
		return core.Principal{}, s.app.Config.AuthRequired("send one Authorization header")
	}
	token, ok := bearerToken(headers[0])
	if !ok {
		return core.Principal{}, s.app.Config.AuthRequired("the Authorization header must be Bearer <key>")
	}
	p, err := s.auth(r.Context(), token)
	if err != nil {
		return core.Principal{}, err
	}
	if p.Anonymous() {
		return core.Principal{}, s.app.Config.AuthRequired("the key is not valid")
	}
	if err := s.app.Config.AuthorizeRESTRoute(p, op.Connections); err != nil {
		return core.Principal{}, err
	}
	return p, nil
}

// sessionPrincipal resolves the web app's session cookie. A browser sends
// cookies with cross-site requests too, so a state-changing method must
// prove it comes from the site's own pages: an Origin header (checkOrigin
// has already refused any other origin than the site's) or, from browsers
// that omit it, Sec-Fetch-Site: same-origin.
func (s *server) sessionPrincipal(r *http.Request, token string) (core.Principal, error) {
	if stateChanging(r.Method) && r.Header.Get("Origin") == "" && r.Header.Get("Sec-Fetch-Site") != "same-origin" {
		return core.Principal{}, core.Errorf(core.CodeOriginForbidden,
			"a signed-in request that changes something must come from this site's pages (Origin %s)", s.origin)
	}
	p, err := s.app.Identity.AuthenticateSession(r.Context(), token)
	if err != nil {
		return core.Principal{}, err
	}
	return p, nil
}

// stateChanging reports whether method may change something.
func stateChanging(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// bearerToken returns the token of an "Authorization: Bearer <token>"
// header; the scheme is case-insensitive.
func bearerToken(h string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(h), " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" || strings.ContainsAny(token, " \t") {
		return "", false
	}
	return token, true
}

// principalFrom is the principal authenticate stored; anonymous when none.
func principalFrom(r *http.Request) core.Principal {
	p, _ := core.PrincipalFrom(r.Context())
	return p
}
