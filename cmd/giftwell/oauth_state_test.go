package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/connect"
)

// OAuth 2.1 makes state optional with PKCE: the TypeScript MCP SDK sends
// none. Without PKCE S256 a state of 8 characters or more is still required.
func TestOAuthStateOptionalWithPKCE(t *testing.T) {
	t.Parallel()
	s := newOAuthSite(t)

	t.Run("no state", func(t *testing.T) {
		query := s.authorizeQuery(func(q url.Values) { q.Del("state") })
		res, body := s.do(t, http.MethodGet, query, "", "", true)
		require.Equal(t, http.StatusOK, res.StatusCode, "the consent page: %s", body)
		loc := s.consent(t, query)
		require.NotContains(t, loc.Query(), "state", "no state sent, none returned (not even empty): %s", loc)
		code := loc.Query().Get("code")
		require.True(t, strings.HasPrefix(code, connect.OAuthCodePrefix), code)
		status, tok, _ := s.exchange(t, code)
		require.Equal(t, http.StatusOK, status, tok)
		require.NotEmpty(t, tok["access_token"])
	})

	t.Run("short state comes back unchanged", func(t *testing.T) {
		loc := s.consent(t, s.authorizeQuery(func(q url.Values) { q.Set("state", "ab") }))
		require.Equal(t, []string{"ab"}, loc.Query()["state"])
		status, tok, _ := s.exchange(t, loc.Query().Get("code"))
		require.Equal(t, http.StatusOK, status, tok)
	})

	t.Run("a refusal without state carries none", func(t *testing.T) {
		form := url.Values{"decision": {"deny"}}
		res, body := s.do(t, http.MethodPost, s.authorizeQuery(func(q url.Values) { q.Del("state") }), "application/x-www-form-urlencoded", form.Encode(), true)
		require.Equal(t, http.StatusSeeOther, res.StatusCode, string(body))
		loc, err := url.Parse(res.Header.Get("Location"))
		require.NoError(t, err)
		require.Equal(t, "access_denied", loc.Query().Get("error"))
		require.NotContains(t, loc.Query(), "state")
	})

	t.Run("without PKCE state is still required", func(t *testing.T) {
		for _, state := range []string{"", "ab", "1234567"} {
			query := s.authorizeQuery(func(q url.Values) {
				q.Set("state", state)
				q.Del("code_challenge")
				q.Del("code_challenge_method")
			})
			require.Equal(t, "invalid_state", s.authorizeError(t, query), "state %q", state)
		}
		// A plain challenge is not S256: state is required too.
		require.Equal(t, "invalid_state", s.authorizeError(t, s.authorizeQuery(func(q url.Values) {
			q.Del("state")
			q.Set("code_challenge_method", "plain")
		})))
		// With a long enough state, the missing PKCE is the refusal.
		require.Equal(t, "invalid_request", s.authorizeError(t, s.authorizeQuery(func(q url.Values) {
			q.Del("code_challenge")
			q.Del("code_challenge_method")
		})))
	})

	// The state check is fosite's last; a request without state that also
	// fails an earlier check must still be refused for that one.
	t.Run("other checks still apply without state", func(t *testing.T) {
		require.Equal(t, "invalid_scope", s.authorizeError(t, s.authorizeQuery(func(q url.Values) {
			q.Del("state")
			q.Set("scope", "gifts:read admin")
		})))
		require.Equal(t, "unsupported_response_type", s.authorizeError(t, s.authorizeQuery(func(q url.Values) {
			q.Del("state")
			q.Set("response_type", "token")
		})))
	})
}
