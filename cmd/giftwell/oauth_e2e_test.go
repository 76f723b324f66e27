package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/connect"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
)

// oauthSite is the whole server on a real listener whose address is the site URL.
type oauthSite struct {
	env     *apptest.Env
	url     string
	cookie  string
	http    *http.Client
	client  string
	redir   string
	verifer string
}

const loopbackCallback = "http://127.0.0.1:33418/callback"

func newOAuthSite(t *testing.T, opts ...apptest.Option) *oauthSite {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	site := "http://" + l.Addr().String()
	env := apptest.New(t, append([]apptest.Option{apptest.WithSiteURL(site)}, opts...)...)
	srv := httptest.NewUnstartedServer(routes(env.App, slog.New(slog.DiscardHandler)))
	_ = srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	cookie, _ := env.SignIn(t, env.OwnerEmail)
	s := &oauthSite{env: env, url: site, cookie: cookie, verifer: strings.Repeat("v3rifier-", 6),
		http: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}

	res, body := s.do(t, http.MethodPost, "/oauth/register", "application/json",
		`{"client_name":"Test Desktop","redirect_uris":["`+loopbackCallback+`"],"token_endpoint_auth_method":"none","scope":"gifts:read gifts:write gifts:links:read"}`, false)
	require.Equal(t, http.StatusCreated, res.StatusCode, string(body))
	var reg map[string]any
	require.NoError(t, json.Unmarshal(body, &reg))
	s.client = reg["client_id"].(string)
	return s
}

func (s *oauthSite) do(t *testing.T, method, path, contentType, body string, withCookie bool) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, s.url+path, strings.NewReader(body))
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if withCookie {
		req.AddCookie(&http.Cookie{Name: identity.SessionCookieName, Value: s.cookie})
	}
	res, err := s.http.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, b
}

// authorizeQuery is a valid authorization request, changed by edit.
func (s *oauthSite) authorizeQuery(edit func(url.Values)) string {
	sum := sha256.Sum256([]byte(s.verifer))
	q := url.Values{
		"response_type":         {"code"},
		"client_id":             {s.client},
		"redirect_uri":          {"http://127.0.0.1:5555/callback"}, // RFC 8252: another port than registered
		"scope":                 {"gifts:read gifts:write gifts:links:read"},
		"state":                 {"state-0123456789"},
		"code_challenge":        {base64.RawURLEncoding.EncodeToString(sum[:])},
		"code_challenge_method": {"S256"},
		"resource":              {s.url + "/mcp"},
	}
	if edit != nil {
		edit(q)
	}
	return "/oauth/authorize?" + q.Encode()
}

// consent posts the consent form with the ticked optional scopes and returns the redirect.
func (s *oauthSite) consent(t *testing.T, query string, ticked ...string) *url.URL {
	t.Helper()
	form := url.Values{"decision": {"allow"}, "scope_grant": ticked}
	res, body := s.do(t, http.MethodPost, query, "application/x-www-form-urlencoded", form.Encode(), true)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, string(body))
	loc, err := url.Parse(res.Header.Get("Location"))
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:5555", loc.Host, "redirected to the client, not to sign in")
	return loc
}

// tokenRequest posts to /oauth/token.
func (s *oauthSite) tokenRequest(t *testing.T, form url.Values) (int, map[string]any, http.Header) {
	t.Helper()
	res, body := s.do(t, http.MethodPost, "/oauth/token", "application/x-www-form-urlencoded", form.Encode(), false)
	var out map[string]any
	require.NoError(t, json.Unmarshal(body, &out), string(body))
	return res.StatusCode, out, res.Header
}

func (s *oauthSite) exchange(t *testing.T, code string) (int, map[string]any, http.Header) {
	t.Helper()
	return s.tokenRequest(t, url.Values{
		"grant_type": {"authorization_code"}, "code": {code}, "client_id": {s.client},
		"redirect_uri": {"http://127.0.0.1:5555/callback"}, "code_verifier": {s.verifer}, "resource": {s.url + "/mcp"},
	})
}

type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// toolNames lists the MCP tools the token sees through the go-sdk client.
func (s *oauthSite) toolNames(t *testing.T, token string) []string {
	t.Helper()
	client := sdk.NewClient(&sdk.Implementation{Name: "oauth-e2e", Version: "1.0.0"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint: s.url + "/mcp", HTTPClient: &http.Client{Transport: bearerTransport{token}},
		DisableStandaloneSSE: true, MaxRetries: -1,
	}, nil)
	require.NoError(t, err)
	defer cs.Close()
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// mcpStatus is the HTTP status of an MCP initialize with token.
func (s *oauthSite) mcpStatus(t *testing.T, path, token string) (int, http.Header) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.url+path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = res.Body.Close()
	return res.StatusCode, res.Header
}

func TestOAuthEndToEnd(t *testing.T) {
	t.Parallel()
	s := newOAuthSite(t)

	// Discovery: the protected resource names the issuer whose metadata is served.
	res, body := s.do(t, http.MethodGet, "/.well-known/oauth-protected-resource/mcp", "", "", false)
	require.Equal(t, http.StatusOK, res.StatusCode)
	var pr map[string]any
	require.NoError(t, json.Unmarshal(body, &pr))
	require.Equal(t, []any{s.url}, pr["authorization_servers"])
	res, body = s.do(t, http.MethodGet, "/.well-known/oauth-authorization-server", "", "", false)
	require.Equal(t, http.StatusOK, res.StatusCode)
	var as map[string]any
	require.NoError(t, json.Unmarshal(body, &as))
	require.Equal(t, s.url, as["issuer"])

	// Not signed in: sent to sign in and back.
	query := s.authorizeQuery(nil)
	res, _ = s.do(t, http.MethodGet, query, "", "", false)
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	require.Equal(t, "/login?next="+url.QueryEscape(query), res.Header.Get("Location"))

	// Signed in: the consent page, unframeable.
	res, body = s.do(t, http.MethodGet, query, "", "", true)
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	require.Equal(t, "DENY", res.Header.Get("X-Frame-Options"))
	require.Contains(t, res.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'")
	require.Contains(t, string(body), "Test Desktop")
	require.Contains(t, string(body), "127.0.0.1:5555")
	require.Contains(t, string(body), `value="gifts:write"`)
	require.Contains(t, string(body), `value="gifts:links:read"`)

	// A cross-site post of the consent form is refused.
	req, err := http.NewRequest(http.MethodPost, s.url+query, strings.NewReader("decision=allow"))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.AddCookie(&http.Cookie{Name: identity.SessionCookieName, Value: s.cookie})
	cross, err := s.http.Do(req)
	require.NoError(t, err)
	_ = cross.Body.Close()
	require.Equal(t, http.StatusForbidden, cross.StatusCode)

	// Consent with gifts:write unticked: read and links only.
	loc := s.consent(t, query, "gifts:links:read")
	require.Equal(t, "127.0.0.1:5555", loc.Host)
	require.Equal(t, "state-0123456789", loc.Query().Get("state"))
	require.Equal(t, s.url, loc.Query().Get("iss"))
	code := loc.Query().Get("code")
	require.True(t, strings.HasPrefix(code, connect.OAuthCodePrefix), code)

	status, tok, h := s.exchange(t, code)
	require.Equal(t, http.StatusOK, status, tok)
	require.Equal(t, "no-store", h.Get("Cache-Control"))
	access, refresh := tok["access_token"].(string), tok["refresh_token"].(string)
	require.True(t, strings.HasPrefix(access, connect.OAuthAccessTokenPrefix), access)
	require.True(t, strings.HasPrefix(refresh, connect.OAuthRefreshTokenPrefix), refresh)
	require.InDelta(t, 900, tok["expires_in"], 5)

	p, err := s.env.App.Connect.Authenticate(t.Context(), access)
	require.NoError(t, err)
	require.Equal(t, core.ViaConnection, p.Via)
	require.Equal(t, s.env.WorkspaceID, p.WorkspaceID)
	require.Equal(t, s.env.OwnerID, p.UserID)
	require.Equal(t, core.RoleOwner, p.Role)
	require.ElementsMatch(t, []core.Scope{core.ScopeRead, core.ScopeLinks}, p.Scopes)

	names := s.toolNames(t, access)
	require.Contains(t, names, "list_campaigns")
	require.NotContains(t, names, "create_campaign", "gifts:write was not granted")

	// Refresh rotates both tokens.
	status, tok2, _ := s.tokenRequest(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {s.client}})
	require.Equal(t, http.StatusOK, status, tok2)
	access2, refresh2 := tok2["access_token"].(string), tok2["refresh_token"].(string)
	require.NotEqual(t, refresh, refresh2)
	_, err = s.env.App.Connect.Authenticate(t.Context(), access)
	require.Error(t, err, "the access token of the rotated refresh token no longer works")
	status, _ = s.mcpStatus(t, "/mcp", access2)
	require.Equal(t, http.StatusOK, status)

	// Replaying the used refresh token revokes the whole grant.
	status, replay, _ := s.tokenRequest(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {s.client}})
	require.Equal(t, http.StatusBadRequest, status, replay)
	require.Equal(t, "invalid_grant", replay["error"])
	status, hdr := s.mcpStatus(t, "/mcp", access2)
	require.Equal(t, http.StatusUnauthorized, status)
	require.Contains(t, hdr.Get("WWW-Authenticate"), "oauth-protected-resource")
	status, again, _ := s.tokenRequest(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh2}, "client_id": {s.client}})
	require.Equal(t, http.StatusBadRequest, status, again)
}

// authorizeError follows a signed-in consent post of query and returns the
// error the client is redirected with.
func (s *oauthSite) authorizeError(t *testing.T, query string) string {
	t.Helper()
	res, body := s.do(t, http.MethodGet, query, "", "", true)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, string(body))
	loc, err := url.Parse(res.Header.Get("Location"))
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:5555", loc.Host)
	require.Empty(t, loc.Query().Get("code"))
	return loc.Query().Get("error")
}

func TestOAuthAttacks(t *testing.T) {
	t.Parallel()
	s := newOAuthSite(t)

	t.Run("PKCE downgrade", func(t *testing.T) {
		require.Equal(t, "invalid_request", s.authorizeError(t, s.authorizeQuery(func(q url.Values) {
			q.Del("code_challenge")
			q.Del("code_challenge_method")
		})))
		require.Equal(t, "invalid_request", s.authorizeError(t, s.authorizeQuery(func(q url.Values) {
			q.Set("code_challenge", s.verifer)
			q.Set("code_challenge_method", "plain")
		})))
		require.Equal(t, "invalid_request", s.authorizeError(t, s.authorizeQuery(func(q url.Values) { q.Del("code_challenge_method") })))
	})

	t.Run("resource missing or foreign", func(t *testing.T) {
		for _, r := range []string{"", "https://evil.example/mcp", s.url + "/api/v1"} {
			require.Equal(t, "invalid_target", s.authorizeError(t, s.authorizeQuery(func(q url.Values) { q.Set("resource", r) })), r)
		}
	})

	t.Run("redirect URI variants never redirect", func(t *testing.T) {
		for _, uri := range []string{
			"http://127.0.0.1:5555/Callback",
			"http://127.0.0.1:5555/callback/extra",
			"http://127.0.0.1:5555/callback?x=1",
			"http://127.0.0.1:5555/callback#x",
			"http://127.0.0.1:5555/x/../callback",
			"http://127.0.0.1:5555/%63allback",
			"http://localhost:5555/callback",
			"http://evil.example/callback",
			"https://127.0.0.1:5555/callback",
		} {
			res, _ := s.do(t, http.MethodGet, s.authorizeQuery(func(q url.Values) { q.Set("redirect_uri", uri) }), "", "", true)
			require.Equal(t, http.StatusBadRequest, res.StatusCode, uri)
			require.Empty(t, res.Header.Get("Location"), uri)
		}
	})

	t.Run("code replay revokes what the first redemption issued", func(t *testing.T) {
		code := s.consent(t, s.authorizeQuery(nil), "gifts:write").Query().Get("code")
		status, tok, _ := s.exchange(t, code)
		require.Equal(t, http.StatusOK, status, tok)
		_, err := s.env.App.Connect.Authenticate(t.Context(), tok["access_token"].(string))
		require.NoError(t, err)
		status, again, _ := s.exchange(t, code)
		require.Equal(t, http.StatusBadRequest, status, again)
		require.Equal(t, "invalid_grant", again["error"])
		_, err = s.env.App.Connect.Authenticate(t.Context(), tok["access_token"].(string))
		require.Error(t, err)
		status, _, _ = s.tokenRequest(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}, "client_id": {s.client}})
		require.Equal(t, http.StatusBadRequest, status)
	})

	t.Run("concurrent redemptions of one code: one wins", func(t *testing.T) {
		code := s.consent(t, s.authorizeQuery(nil)).Query().Get("code")
		statuses := make(chan int, 6)
		var wg sync.WaitGroup
		for range 6 {
			wg.Go(func() {
				form := url.Values{
					"grant_type": {"authorization_code"}, "code": {code}, "client_id": {s.client},
					"redirect_uri": {"http://127.0.0.1:5555/callback"}, "code_verifier": {s.verifer},
				}
				res, err := http.PostForm(s.url+"/oauth/token", form)
				if err != nil {
					statuses <- 0
					return
				}
				_ = res.Body.Close()
				statuses <- res.StatusCode
			})
		}
		wg.Wait()
		close(statuses)
		ok := 0
		for st := range statuses {
			if st == http.StatusOK {
				ok++
			}
		}
		require.Equal(t, 1, ok)
	})

	t.Run("wrong verifier and foreign resource at exchange", func(t *testing.T) {
		code := s.consent(t, s.authorizeQuery(nil)).Query().Get("code")
		status, out, _ := s.tokenRequest(t, url.Values{
			"grant_type": {"authorization_code"}, "code": {code}, "client_id": {s.client},
			"redirect_uri": {"http://127.0.0.1:5555/callback"}, "code_verifier": {strings.Repeat("x", 50)},
		})
		require.Equal(t, http.StatusBadRequest, status, out)
		require.Equal(t, "invalid_grant", out["error"])

		code = s.consent(t, s.authorizeQuery(nil)).Query().Get("code")
		status, out, _ = s.tokenRequest(t, url.Values{
			"grant_type": {"authorization_code"}, "code": {code}, "client_id": {s.client},
			"redirect_uri": {"http://127.0.0.1:5555/callback"}, "code_verifier": {s.verifer}, "resource": {s.url + "/chatgpt/mcp"},
		})
		require.Equal(t, http.StatusBadRequest, status, out)
		require.Equal(t, "invalid_target", out["error"])
		desc, _ := out["error_description"].(string)
		require.Contains(t, desc, s.url+"/mcp", "the description names the real MCP URLs")
		require.Contains(t, desc, s.url+"/chatgpt/mcp")
		require.NotContains(t, desc, "{", "no template placeholder is left")
	})

	t.Run("scope escalation at refresh", func(t *testing.T) {
		code := s.consent(t, s.authorizeQuery(func(q url.Values) { q.Set("scope", "gifts:read") })).Query().Get("code")
		status, tok, _ := s.exchange(t, code)
		require.Equal(t, http.StatusOK, status, tok)
		status, out, _ := s.tokenRequest(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)},
			"client_id": {s.client}, "scope": {"gifts:read gifts:write"}})
		require.Equal(t, http.StatusBadRequest, status, out)
		p, err := s.env.App.Connect.Authenticate(t.Context(), tok["access_token"].(string))
		if err == nil {
			require.Equal(t, []core.Scope{core.ScopeRead}, p.Scopes)
		}
	})

	t.Run("token for the assistant endpoint", func(t *testing.T) {
		code := s.consent(t, s.authorizeQuery(func(q url.Values) { q.Set("resource", s.url+"/chatgpt/mcp") })).Query().Get("code")
		status, tok, _ := s.tokenRequest(t, url.Values{
			"grant_type": {"authorization_code"}, "code": {code}, "client_id": {s.client},
			"redirect_uri": {"http://127.0.0.1:5555/callback"}, "code_verifier": {s.verifer}, "resource": {s.url + "/chatgpt/mcp"},
		})
		require.Equal(t, http.StatusOK, status, tok)
		st, _ := s.mcpStatus(t, "/chatgpt/mcp", tok["access_token"].(string))
		require.Equal(t, http.StatusOK, st)
		st, _ = s.mcpStatus(t, "/mcp", tok["access_token"].(string))
		require.Equal(t, http.StatusUnauthorized, st)
	})

	t.Run("token in the query string is refused", func(t *testing.T) {
		code := s.consent(t, s.authorizeQuery(nil), "gifts:write").Query().Get("code")
		status, tok, _ := s.exchange(t, code)
		require.Equal(t, http.StatusOK, status, tok)
		access := tok["access_token"].(string)
		st, _ := s.mcpStatus(t, "/mcp?access_token="+url.QueryEscape(access), "")
		require.Equal(t, http.StatusUnauthorized, st)
		st, _ = s.mcpStatus(t, "/mcp", access)
		require.Equal(t, http.StatusOK, st)
		st, hdr := s.mcpStatus(t, "/chatgpt/mcp", access)
		require.Equal(t, http.StatusUnauthorized, st, "a token for {mcp_url} does not work on {chatgpt_mcp_url}")
		require.Contains(t, hdr.Get("WWW-Authenticate"), "/.well-known/oauth-protected-resource/chatgpt/mcp")
		require.Contains(t, s.toolNames(t, access), "create_campaign", "gifts:write was granted")
	})

	t.Run("revocation ends the grant", func(t *testing.T) {
		code := s.consent(t, s.authorizeQuery(nil)).Query().Get("code")
		status, tok, _ := s.exchange(t, code)
		require.Equal(t, http.StatusOK, status, tok)
		res, body := s.do(t, http.MethodPost, "/oauth/revoke", "application/x-www-form-urlencoded",
			url.Values{"token": {tok["refresh_token"].(string)}, "client_id": {s.client}}.Encode(), false)
		require.Equal(t, http.StatusOK, res.StatusCode, string(body))
		_, err := s.env.App.Connect.Authenticate(t.Context(), tok["access_token"].(string))
		require.Error(t, err)
	})
}

// TestOAuthMemberRemovalEndsGrants: leaving the workspace ends the person's
// grants at once (the grant rows go with the membership), and rejoining
// does not bring them back.
func TestOAuthMemberRemovalEndsGrants(t *testing.T) {
	t.Parallel()
	s := newOAuthSite(t)
	member := s.env.AddPerson(t, core.RoleMember)
	s.cookie, _ = s.env.SignIn(t, member.Email)

	code := s.consent(t, s.authorizeQuery(nil), "gifts:write").Query().Get("code")
	status, tok, _ := s.exchange(t, code)
	require.Equal(t, http.StatusOK, status, tok)
	p, err := s.env.App.Connect.Authenticate(t.Context(), tok["access_token"].(string))
	require.NoError(t, err)
	require.Equal(t, core.RoleMember, p.Role)
	require.Equal(t, member.UserID, p.UserID)

	require.NoError(t, s.env.App.Identity.RemoveMember(t.Context(), s.env.WorkspaceID, member.UserID))
	_, err = s.env.App.Connect.Authenticate(t.Context(), tok["access_token"].(string))
	require.Equal(t, core.CodeAuthRequired, core.ErrorCode(err))
	status, out, _ := s.tokenRequest(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}, "client_id": {s.client}})
	require.Equal(t, http.StatusBadRequest, status, out)
}

// TestOAuthGrantLifetime: a grant lives 30 days after consent or its latest
// refresh, and never more than 365 days after consent.
func TestOAuthGrantLifetime(t *testing.T) {
	t.Parallel()
	s := newOAuthSite(t)
	refresh := func(rt string) (int, map[string]any) {
		status, out, _ := s.tokenRequest(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rt}, "client_id": {s.client}})
		return status, out
	}

	// Access tokens last 15 minutes.
	status, tok, _ := s.exchange(t, s.consent(t, s.authorizeQuery(nil)).Query().Get("code"))
	require.Equal(t, http.StatusOK, status, tok)
	s.env.Clock.Advance(14 * time.Minute)
	_, err := s.env.App.Connect.Authenticate(t.Context(), tok["access_token"].(string))
	require.NoError(t, err)
	s.env.Clock.Advance(2 * time.Minute)
	_, err = s.env.App.Connect.Authenticate(t.Context(), tok["access_token"].(string))
	require.Error(t, err)

	// Idle for 31 days: ended.
	s.env.Clock.Advance(31 * 24 * time.Hour)
	_, err = s.env.App.Connect.Authenticate(t.Context(), tok["access_token"].(string))
	require.Error(t, err)
	status, out := refresh(tok["refresh_token"].(string))
	require.Equal(t, http.StatusBadRequest, status, out)

	// Refreshed every 29 days: alive until 365 days after consent.
	s.cookie, _ = s.env.SignIn(t, s.env.OwnerEmail)
	status, tok, _ = s.exchange(t, s.consent(t, s.authorizeQuery(nil)).Query().Get("code"))
	require.Equal(t, http.StatusOK, status, tok)
	rt := tok["refresh_token"].(string)
	for day := 29; day < 365; day += 29 {
		s.env.Clock.Advance(29 * 24 * time.Hour)
		status, out = refresh(rt)
		require.Equal(t, http.StatusOK, status, "day %d: %v", day, out)
		rt = out["refresh_token"].(string)
		_, err = s.env.App.Connect.Authenticate(t.Context(), out["access_token"].(string))
		require.NoError(t, err, "day %d", day)
	}
	// Day 348 now; the next 29 days cross day 365.
	s.env.Clock.Advance(29 * 24 * time.Hour)
	status, out = refresh(rt)
	require.Equal(t, http.StatusBadRequest, status, out)
}

// TestOAuthDisconnect: the connected-apps page lists the person's grants,
// and disconnecting one ends its tokens at once; another person cannot.
func TestOAuthDisconnect(t *testing.T) {
	t.Parallel()
	s := newOAuthSite(t)
	status, tok, _ := s.exchange(t, s.consent(t, s.authorizeQuery(nil)).Query().Get("code"))
	require.Equal(t, http.StatusOK, status, tok)
	p, err := s.env.App.Connect.Authenticate(t.Context(), tok["access_token"].(string))
	require.NoError(t, err)
	grantID := p.CredentialID

	res, body := s.do(t, http.MethodGet, "/oauth/disconnect", "", "", true)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(body), "Test Desktop")
	require.Contains(t, string(body), grantID)
	require.Equal(t, "DENY", res.Header.Get("X-Frame-Options"))
	// The list is drawn in the web app's shell: brand, stylesheet, site nav.
	require.Contains(t, string(body), `class="brand"`)
	require.Contains(t, string(body), "/static/app.")
	require.Contains(t, string(body), `href="/settings" aria-current="page"`)

	res, _ = s.do(t, http.MethodGet, "/oauth/disconnect", "", "", false)
	require.Equal(t, http.StatusSeeOther, res.StatusCode)

	// Someone else cannot end it.
	other := s.env.AddPerson(t, core.RoleAdmin)
	owner := s.cookie
	s.cookie, _ = s.env.SignIn(t, other.Email)
	res, _ = s.do(t, http.MethodPost, "/oauth/disconnect", "application/x-www-form-urlencoded", "grant_id="+grantID, true)
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	_, err = s.env.App.Connect.Authenticate(t.Context(), tok["access_token"].(string))
	require.NoError(t, err)

	s.cookie = owner
	res, _ = s.do(t, http.MethodPost, "/oauth/disconnect", "application/x-www-form-urlencoded", "grant_id="+grantID, true)
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	_, err = s.env.App.Connect.Authenticate(t.Context(), tok["access_token"].(string))
	require.Equal(t, core.CodeAuthRequired, core.ErrorCode(err))
	status, out, _ := s.tokenRequest(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}, "client_id": {s.client}})
	require.Equal(t, http.StatusBadRequest, status, out)
	_, body = s.do(t, http.MethodGet, "/oauth/disconnect", "", "", true)
	require.NotContains(t, string(body), grantID)
}

// TestOAuthTokenStaysInItsWorkspace: a connection's token reaches its own
// workspace only; another workspace's campaign ID is NOT_FOUND, and lists
// never show it.
func TestOAuthTokenStaysInItsWorkspace(t *testing.T) {
	t.Parallel()
	s := newOAuthSite(t)
	code := s.consent(t, s.authorizeQuery(nil), "gifts:write").Query().Get("code")
	status, tok, _ := s.exchange(t, code)
	require.Equal(t, http.StatusOK, status, tok)
	token := tok["access_token"].(string)

	other := apptest.NewWorkspace(t, s.env.App, apptest.WorkspaceOptions{Name: "Other Co"})
	req, err := http.NewRequest(http.MethodPost, s.url+"/api/v1/campaigns", strings.NewReader(
		`{"name":"Theirs","mode":"always_on","productId":"engraved-walnut-desk-organizer","senderName":"Them","senderCompany":"Other Co"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+other.OwnerKey)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	var created struct {
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&created))
	_ = res.Body.Close()
	require.Equal(t, http.StatusCreated, res.StatusCode)
	require.NotEmpty(t, created.Data.ID)

	client := sdk.NewClient(&sdk.Implementation{Name: "oauth-e2e", Version: "1.0.0"}, nil)
	cs, err := client.Connect(t.Context(), &sdk.StreamableClientTransport{
		Endpoint: s.url + "/mcp", HTTPClient: &http.Client{Transport: bearerTransport{token}},
		DisableStandaloneSSE: true, MaxRetries: -1,
	}, nil)
	require.NoError(t, err)
	defer cs.Close()

	got, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "get_campaign", Arguments: map[string]any{"id": created.Data.ID}})
	require.NoError(t, err)
	require.True(t, got.IsError, "another workspace's campaign is refused")
	envelope, err := json.Marshal(got.StructuredContent)
	require.NoError(t, err)
	require.Contains(t, string(envelope), `"code":"NOT_FOUND"`)

	got, err = cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "update_campaign", Arguments: map[string]any{"id": created.Data.ID, "name": "Mine now", "expectedPolicyVersion": 1}})
	require.NoError(t, err)
	require.True(t, got.IsError, "and cannot be changed")

	got, err = cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "list_campaigns", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.False(t, got.IsError)
	list, err := json.Marshal(got.StructuredContent)
	require.NoError(t, err)
	require.NotContains(t, string(list), created.Data.ID)
}

// TestOAuthConsentPicksWorkspace: a person in two workspaces sees both on the
// consent page, picks the second, and the token acts there; a workspace they
// do not belong to is refused.
func TestOAuthConsentPicksWorkspace(t *testing.T) {
	t.Parallel()
	s := newOAuthSite(t)
	second := apptest.NewWorkspace(t, s.env.App, apptest.WorkspaceOptions{Name: "Second Co"})
	_, err := s.env.App.Identity.AddMember(t.Context(), identity.AddMemberParams{
		WorkspaceID: second.WorkspaceID, Email: s.env.OwnerEmail, Password: apptest.Password, Role: core.RoleMember,
	})
	require.NoError(t, err)
	foreign := apptest.NewWorkspace(t, s.env.App, apptest.WorkspaceOptions{Name: "Foreign Co"})

	query := s.authorizeQuery(nil)
	res, body := s.do(t, http.MethodGet, query, "", "", true)
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	require.Contains(t, string(body), `name="workspace_id"`)
	require.Contains(t, string(body), `value="`+s.env.WorkspaceID+`" selected`, "the session's workspace is the default")
	require.Contains(t, string(body), "Second Co")
	require.NotContains(t, string(body), "Foreign Co")

	form := url.Values{"decision": {"allow"}, "workspace_id": {foreign.WorkspaceID}}
	res, body = s.do(t, http.MethodPost, query, "application/x-www-form-urlencoded", form.Encode(), true)
	require.Equal(t, http.StatusForbidden, res.StatusCode, string(body))
	require.Empty(t, res.Header.Get("Location"), "a forged workspace gets no code")

	form = url.Values{"decision": {"allow"}, "workspace_id": {second.WorkspaceID}}
	res, body = s.do(t, http.MethodPost, query, "application/x-www-form-urlencoded", form.Encode(), true)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, string(body))
	loc, err := url.Parse(res.Header.Get("Location"))
	require.NoError(t, err)
	status, tok, _ := s.exchange(t, loc.Query().Get("code"))
	require.Equal(t, http.StatusOK, status, tok)
	p, err := s.env.App.Connect.Authenticate(t.Context(), tok["access_token"].(string))
	require.NoError(t, err)
	require.Equal(t, second.WorkspaceID, p.WorkspaceID)
	require.Equal(t, core.RoleMember, p.Role)
	require.Equal(t, core.ViaConnection, p.Via)
}
