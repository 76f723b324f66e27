package oauth_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/connect"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/oauth"
)

// oauthServer is the whole authorization server on a real listener.
func oauthServer(t *testing.T) (*httptest.Server, *apptest.Env) {
	t.Helper()
	env := apptest.New(t, apptest.WithSiteURL("https://gifts.example.com"))
	srv := httptest.NewServer(oauth.NewServer(env.App, nil).Handler())
	t.Cleanup(srv.Close)
	return srv, env
}

// TestHostileTextGetsTheProtocolsOwnError sends NUL characters and bytes
// that are not UTF-8 to every OAuth endpoint: registration answers
// invalid_client_metadata naming the field, token and revoke
// invalid_request naming the parameter, authorize and disconnect a 400
// page; never a 5xx, never a credential error, and nothing is registered.
func TestHostileTextGetsTheProtocolsOwnError(t *testing.T) {
	t.Parallel()
	srv, env := oauthServer(t)

	for _, tc := range []struct{ body, field string }{
		{`{"client_name":"Claude\u0000","redirect_uris":["https://claude.ai/api/mcp/auth_callback"],"token_endpoint_auth_method":"none"}`, "client_name"},
		{"{\"client_name\":\"Cl\xffaude\",\"redirect_uris\":[\"https://claude.ai/api/mcp/auth_callback\"],\"token_endpoint_auth_method\":\"none\"}", "client_name"},
		{`{"client_name":"C","redirect_uris":["https://claude.ai/api/mcp/auth_callback","https://claude.ai/\u0000"],"token_endpoint_auth_method":"none"}`, "redirect_uris[1]"},
		{`{"client_name":"C","redirect_uris":["https://claude.ai/api/mcp/auth_callback"],"scope":"gifts:read\u0000","token_endpoint_auth_method":"none"}`, "scope"},
		{`{"client_name":"C","redirect_uris":["https://claude.ai/api/mcp/auth_callback"],"token_endpoint_auth_method":"none","logo_uri":"\u0000"}`, "logo_uri"},
	} {
		status, out := send(t, http.MethodPost, srv.URL+"/oauth/register", "application/json", tc.body, "")
		require.Equal(t, http.StatusBadRequest, status, "%s: %v", tc.body, out)
		require.Equal(t, "invalid_client_metadata", out["error"], tc.body)
		require.True(t, strings.HasPrefix(out["error_description"].(string), tc.field+": "), "%s: %v", tc.body, out)
	}
	// A clean registration still works, so the client IDs below are real.
	status, out := send(t, http.MethodPost, srv.URL+"/oauth/register", "application/json",
		`{"client_name":"C","redirect_uris":["https://claude.ai/api/mcp/auth_callback"],"token_endpoint_auth_method":"none"}`, "")
	require.Equal(t, http.StatusCreated, status, out)
	clientID := out["client_id"].(string)

	for _, tc := range []struct{ path, form, basic, field string }{
		{"/oauth/token", "grant_type=refresh_token&refresh_token=mco_refresh_%00&client_id=" + clientID, "", "refresh_token"},
		{"/oauth/token", "grant_type=authorization_code&code=%FF&client_id=" + clientID + "&code_verifier=x&redirect_uri=https://claude.ai/api/mcp/auth_callback", "", "code"},
		{"/oauth/token", "grant_type=refresh_token&refresh_token=x&client_id=oac_%00", "", "client_id"},
		{"/oauth/token", "grant_type=refresh_token&refresh_token=x&resource=https://gifts.example.com/mcp%FF&client_id=" + clientID, "", "resource"},
		{"/oauth/token", "grant_type=refresh_token&refresh_token=x", "oac_%00:secret", "client_id"},
		{"/oauth/token", "grant_type=refresh_token&refresh_token=x", clientID + ":s\x00", "client_secret"},
		{"/oauth/token", "grant_type=refresh_token&refresh_token=x&%00=1&client_id=" + clientID, "", "field name"},
		{"/oauth/revoke", "token=mco_access_%00&client_id=" + clientID, "", "token"},
		{"/oauth/revoke", "token=x&token_type_hint=%FF&client_id=" + clientID, "", "token_type_hint"},
	} {
		status, out := send(t, http.MethodPost, srv.URL+tc.path, "application/x-www-form-urlencoded", tc.form, tc.basic)
		require.Equal(t, http.StatusBadRequest, status, "%s %s: %v", tc.path, tc.form, out)
		require.Equal(t, "invalid_request", out["error"], "%s %s", tc.path, tc.form)
		require.True(t, strings.HasPrefix(out["error_description"].(string), tc.field+": "), "%s %s: %v", tc.path, tc.form, out)
	}

	for _, path := range []string{
		"/oauth/authorize?response_type=code&client_id=oac_%00&redirect_uri=https://claude.ai/api/mcp/auth_callback",
		"/oauth/authorize?response_type=code&client_id=" + clientID + "&redirect_uri=https://claude.ai/api/mcp/auth_callback&state=%FF",
	} {
		res, err := http.Get(srv.URL + path)
		require.NoError(t, err)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		require.Equal(t, http.StatusBadRequest, res.StatusCode, "%s: %s", path, body)
		require.Contains(t, string(body), "invalid_request")
	}
	for _, tc := range []struct{ path, form string }{
		{"/oauth/authorize?response_type=code&client_id=" + clientID, "decision=allow&workspace_id=ws_%00"},
		{"/oauth/disconnect", "grant_id=ogr_%00"},
		{"/oauth/disconnect", "grant_id=%FF"},
	} {
		req, err := http.NewRequest(http.MethodPost, srv.URL+tc.path, strings.NewReader(tc.form))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		require.Equal(t, http.StatusBadRequest, res.StatusCode, "%s %s: %s", tc.path, tc.form, body)
	}

	// Only the clean client was registered: the address may still register
	// the rest of its allowance.
	for i := 1; i < connect.OAuthRegistrationsPerAddress; i++ {
		status, out := send(t, http.MethodPost, srv.URL+"/oauth/register", "application/json",
			`{"client_name":"C","redirect_uris":["https://claude.ai/api/mcp/auth_callback"],"token_endpoint_auth_method":"none"}`, "")
		require.Equal(t, http.StatusCreated, status, "registration %d: %v", i+1, out)
	}
	_, err := env.App.Connect.OAuthClientByID(t.Context(), clientID)
	require.NoError(t, err)
}

// send posts body (or GETs) and decodes the JSON answer.
func send(t *testing.T, method, url, contentType, body, basic string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", contentType)
	if id, secret, ok := strings.Cut(basic, ":"); ok {
		req.SetBasicAuth(id, secret)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(raw, &out), "%d %s", res.StatusCode, raw)
	return res.StatusCode, out
}
