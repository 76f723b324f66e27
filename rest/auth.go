package rest

import (
	"net/http"
	"strings"

	"github.com/giftwell/giftwell/core"
)

// authenticate resolves the request's credentials for op and puts the
// principal in the context. A request without credentials is anonymous on
// an optional route and 401 AUTH_REQUIRED on a required one; a bad, revoked
// or unknown credential is 401 wherever it is sent; a sign-in connection is
// 401 outside the gift-link distribution routes.
func (s *server) authenticate(op *operation) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p, err := s.principal(r, op)
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
		if op.Access == accessOptional {
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
	if p.Via == core.ViaConnection && !connectionRoute(op.Path) {
		return core.Principal{}, s.app.Config.AuthRequired("sign-in connections work on MCP and the gift-link distribution routes only; use a workspace key here")
	}
	return p, nil
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
