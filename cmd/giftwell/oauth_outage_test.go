package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/apptest"
)

// TestOAuthDuringDatabaseOutage: while the database is down, a refresh, a
// code exchange, a revocation and a registration are answered server_error
// with 503 and Retry-After (never invalid_client or invalid_grant, which
// tell a client to drop its credentials), the consent page is a 503 page
// (not a sign-in redirect), and MCP refuses the access token with 503, not
// 401. When the database is back, the same refresh token and the same code
// still work: nothing was revoked or used up.
func TestOAuthDuringDatabaseOutage(t *testing.T) {
	t.Parallel()
	s := newOAuthSite(t, apptest.WithFaults())
	query := s.authorizeQuery(nil)
	status, tok, _ := s.exchange(t, s.consent(t, query, "gifts:write", "gifts:links:read").Query().Get("code"))
	require.Equal(t, http.StatusOK, status, tok)
	access, refresh := tok["access_token"].(string), tok["refresh_token"].(string)
	code := s.consent(t, query, "gifts:write").Query().Get("code") // a second connection, exchanged later
	refreshForm := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {s.client}}
	unavailable := func(status int, body map[string]any, h http.Header) {
		t.Helper()
		require.Equal(t, http.StatusServiceUnavailable, status, body)
		require.Equal(t, "server_error", body["error"], body)
		require.NotEmpty(t, h.Get("Retry-After"))
	}

	s.env.Faults.Down()
	unavailable(s.tokenRequest(t, refreshForm))
	unavailable(s.exchange(t, code))
	res, body := s.do(t, http.MethodPost, "/oauth/revoke", "application/x-www-form-urlencoded",
		url.Values{"token": {refresh}, "client_id": {s.client}}.Encode(), false)
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode, string(body))
	require.Contains(t, string(body), `"server_error"`)
	res, body = s.do(t, http.MethodPost, "/oauth/register", "application/json",
		`{"client_name":"Later","redirect_uris":["`+loopbackCallback+`"],"token_endpoint_auth_method":"none"}`, false)
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode, string(body))
	require.Contains(t, string(body), `"server_error"`)
	res, body = s.do(t, http.MethodGet, query, "", "", true)
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode, string(body))
	require.Empty(t, res.Header.Get("Location"), "not sent to sign in")
	require.Contains(t, string(body), "briefly unavailable")
	status, hdr := s.mcpStatus(t, "/mcp", access)
	require.Equal(t, http.StatusServiceUnavailable, status)
	require.Empty(t, hdr.Get("WWW-Authenticate"))

	require.NoError(t, s.env.Faults.Up())
	back := time.Now()
	require.Eventually(t, func() bool {
		status, _ := s.mcpStatus(t, "/mcp", access)
		return status == http.StatusOK
	}, 5*time.Second, 50*time.Millisecond, "served again within 5 seconds of the database returning")
	t.Logf("MCP served again %v after the database returned", time.Since(back).Round(time.Millisecond))
	status, tok, _ = s.tokenRequest(t, refreshForm)
	require.Equal(t, http.StatusOK, status, "the refresh token outlived the outage: %v", tok)
	require.True(t, strings.HasPrefix(tok["refresh_token"].(string), "mco_refresh_"))
	status, _ = s.mcpStatus(t, "/mcp", tok["access_token"].(string))
	require.Equal(t, http.StatusOK, status)
	status, tok, _ = s.exchange(t, code)
	require.Equal(t, http.StatusOK, status, "the code outlived the outage: %v", tok)
}
