package main

import (
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/apptest"
)

// TestOAuthAcrossTwoInstances: behind one site address, a balancer hands
// the requests to two instances on one database in turn. An app registers,
// is consented, exchanges its code, lists its tools over MCP, rotates its
// refresh token and is refused the replay, each step on the other instance
// than the one before: nothing of the flow lives in one instance's memory.
func TestOAuthAcrossTwoInstances(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	site := "http://" + l.Addr().String()
	env := apptest.New(t, apptest.WithSiteURL(site))
	instances := []http.Handler{
		routes(env.App, slog.New(slog.DiscardHandler)),
		routes(env.NewInstance(t, nil), slog.New(slog.DiscardHandler)),
	}
	var turn atomic.Int64
	var served [2]atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := turn.Add(1) % 2
		served[i].Add(1)
		instances[i].ServeHTTP(w, r)
	}))
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

	code := s.consent(t, s.authorizeQuery(nil), "gifts:write", "gifts:links:read").Query().Get("code")
	status, tok, _ := s.exchange(t, code)
	require.Equal(t, http.StatusOK, status, tok)
	require.Contains(t, s.toolNames(t, tok["access_token"].(string)), "add_to_playbook")

	refresh := tok["refresh_token"].(string)
	status, tok2, _ := s.tokenRequest(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {s.client}})
	require.Equal(t, http.StatusOK, status, tok2)
	status, _ = s.mcpStatus(t, "/mcp", tok2["access_token"].(string))
	require.Equal(t, http.StatusOK, status)
	status, replay, _ := s.tokenRequest(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {s.client}})
	require.Equal(t, http.StatusBadRequest, status, replay)
	status, _ = s.mcpStatus(t, "/mcp", tok2["access_token"].(string))
	require.Equal(t, http.StatusUnauthorized, status, "the replay revoked the grant on both instances")
	t.Logf("OAuth flow across two instances: %d requests to A, %d to B", served[0].Load(), served[1].Load())
	require.Positive(t, served[0].Load())
	require.Positive(t, served[1].Load())
}
