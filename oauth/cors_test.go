package oauth_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/oauth"
)

// A client running in a browser on another origin can discover the
// authorization server, register, and exchange or revoke tokens; the
// consent and disconnect pages stay same-origin.
func TestBrowserClientsReachThePublicEndpoints(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	mux := http.NewServeMux()
	mux.Handle("/oauth/", oauth.NewServer(env.App, slog.New(slog.DiscardHandler)).Handler())
	mux.Handle(oauth.AuthorizationServerPath, oauth.AuthorizationServerHandler(env.App.Config))
	mux.Handle(oauth.WellKnownPrefix+"/mcp", oauth.ProtectedResourceHandler(env.App.Config, "/mcp"))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	const origin = "https://inspector.example"

	send := func(method, path, body string, header map[string]string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Origin", origin)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		t.Cleanup(func() { _ = resp.Body.Close() })
		return resp
	}
	preflight := func(path, method, headers string) *http.Response {
		t.Helper()
		return send(http.MethodOptions, path, "", map[string]string{"Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers})
	}

	for _, c := range []struct{ path, method, headers string }{
		{"/oauth/token", http.MethodPost, "content-type"},
		{"/oauth/revoke", http.MethodPost, "authorization,content-type"},
		{"/oauth/register", http.MethodPost, "content-type"},
		{oauth.AuthorizationServerPath, http.MethodGet, "mcp-protocol-version"},
		{oauth.WellKnownPrefix + "/mcp", http.MethodGet, "mcp-protocol-version"},
	} {
		resp := preflight(c.path, c.method, c.headers)
		require.Equal(t, http.StatusNoContent, resp.StatusCode, c.path)
		require.Equal(t, "*", resp.Header.Get("Access-Control-Allow-Origin"), c.path)
		require.Equal(t, c.method, resp.Header.Get("Access-Control-Allow-Methods"), c.path)
		require.Empty(t, resp.Header.Get("Access-Control-Allow-Credentials"), c.path)
	}

	// The answers themselves, errors included, are readable from the origin.
	reg := send(http.MethodPost, "/oauth/register", `{"client_name":"Inspector","redirect_uris":["http://127.0.0.1:6274/oauth/callback"],"token_endpoint_auth_method":"none"}`,
		map[string]string{"Content-Type": "application/json"})
	require.Equal(t, http.StatusCreated, reg.StatusCode)
	require.Equal(t, "*", reg.Header.Get("Access-Control-Allow-Origin"))
	tok := send(http.MethodPost, "/oauth/token", "grant_type=authorization_code&code=nope", map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
	require.Equal(t, http.StatusBadRequest, tok.StatusCode)
	require.Equal(t, "*", tok.Header.Get("Access-Control-Allow-Origin"))
	meta := send(http.MethodGet, oauth.AuthorizationServerPath, "", nil)
	require.Equal(t, http.StatusOK, meta.StatusCode)
	require.Equal(t, "*", meta.Header.Get("Access-Control-Allow-Origin"))

	// Other methods are still refused by name.
	get := send(http.MethodGet, "/oauth/token", "", nil)
	require.Equal(t, http.StatusMethodNotAllowed, get.StatusCode)
	require.Equal(t, http.MethodPost, get.Header.Get("Allow"))

	// The pages that act on the signed-in session answer no preflight and
	// refuse a post from another origin.
	consent := preflight("/oauth/authorize", http.MethodPost, "content-type")
	require.Empty(t, consent.Header.Get("Access-Control-Allow-Origin"))
	post := send(http.MethodPost, "/oauth/disconnect", "client_id=x", map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "cross-site"})
	require.Equal(t, http.StatusForbidden, post.StatusCode)
	require.Empty(t, post.Header.Get("Access-Control-Allow-Origin"))
}
