package oauth_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/connect"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/oauth"
)

func TestAuthorizationServerMetadata(t *testing.T) {
	t.Parallel()
	site := "https://gifts.example.com"
	srv := httptest.NewServer(oauth.AuthorizationServerHandler(core.Config{SiteURL: site}))
	t.Cleanup(srv.Close)

	resp, err := http.Get(srv.URL + oauth.AuthorizationServerPath)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var doc map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&doc))
	require.Equal(t, site, doc["issuer"])
	require.Equal(t, site+"/oauth/authorize", doc["authorization_endpoint"])
	require.Equal(t, site+"/oauth/token", doc["token_endpoint"])
	require.Equal(t, site+"/oauth/register", doc["registration_endpoint"])
	require.Equal(t, site+"/oauth/revoke", doc["revocation_endpoint"])
	require.Equal(t, []any{"S256"}, doc["code_challenge_methods_supported"])
	require.Equal(t, []any{"code"}, doc["response_types_supported"])
	require.Equal(t, []any{"authorization_code", "refresh_token"}, doc["grant_types_supported"])
	require.Contains(t, doc["token_endpoint_auth_methods_supported"], "none")
	require.Equal(t, true, doc["authorization_response_iss_parameter_supported"])
	require.Equal(t, []any{"gifts:read", "gifts:write", "gifts:links:read"}, doc["scopes_supported"])

	// The protected-resource documents name this issuer.
	pr := oauth.NewProtectedResource(core.Config{SiteURL: site}, "/mcp")
	require.Equal(t, []string{doc["issuer"].(string)}, pr.AuthorizationServers)
}

func registrationServer(t *testing.T) (*httptest.Server, *apptest.Env) {
	t.Helper()
	env := apptest.New(t)
	srv := httptest.NewServer(oauth.RegistrationHandler(env.App, slog.New(slog.DiscardHandler)))
	t.Cleanup(srv.Close)
	return srv, env
}

func register(t *testing.T, url, body string) (int, map[string]any, http.Header) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &out), string(raw))
	return resp.StatusCode, out, resp.Header
}

func TestRegisterPublicClient(t *testing.T) {
	t.Parallel()
	srv, env := registrationServer(t)
	status, out, h := register(t, srv.URL, `{"client_name":"Claude","redirect_uris":["https://claude.ai/api/mcp/auth_callback","http://127.0.0.1:33418/callback"],"token_endpoint_auth_method":"none","grant_types":["authorization_code","refresh_token"],"response_types":["code"],"scope":"gifts:read gifts:write"}`)
	require.Equal(t, http.StatusCreated, status, out)
	require.Equal(t, "no-store", h.Get("Cache-Control"))
	id, _ := out["client_id"].(string)
	require.True(t, strings.HasPrefix(id, connect.PrefixOAuthClient), id)
	require.NotContains(t, out, "client_secret")
	require.Equal(t, "none", out["token_endpoint_auth_method"])
	require.Equal(t, "gifts:read gifts:write", out["scope"])

	stored, err := env.App.Connect.OAuthClientByID(t.Context(), id)
	require.NoError(t, err)
	require.Equal(t, []string{"https://claude.ai/api/mcp/auth_callback", "http://127.0.0.1:33418/callback"}, stored.RedirectURIs)
	require.Equal(t, "Claude", stored.ClientName)
	require.Empty(t, stored.SecretHash)
}

func TestRegisterConfidentialClientSecretStoredHashed(t *testing.T) {
	t.Parallel()
	srv, env := registrationServer(t)
	status, out, _ := register(t, srv.URL, `{"redirect_uris":["https://chatgpt.com/connector_platform_oauth_redirect"]}`)
	require.Equal(t, http.StatusCreated, status, out)
	require.Equal(t, "client_secret_basic", out["token_endpoint_auth_method"])
	secret, _ := out["client_secret"].(string)
	require.NotEmpty(t, secret)
	stored, err := env.App.Connect.OAuthClientByID(t.Context(), out["client_id"].(string))
	require.NoError(t, err)
	require.Equal(t, connect.HashOAuthSecret(secret), stored.SecretHash)
	require.NotContains(t, stored.SecretHash, secret)
}

func TestRegisterRefusesBadRedirectURIs(t *testing.T) {
	t.Parallel()
	srv, _ := registrationServer(t)
	for _, uri := range []string{
		"http://example.com/callback",
		"https://claude.ai/cb?next=1",
		"https://claude.ai/cb#x",
		"https://u:p@claude.ai/cb",
		"javascript:alert(1)",
		"http://127.0.0.1.nip.io/cb",
	} {
		body, err := json.Marshal(map[string]any{"redirect_uris": []string{"http://127.0.0.1/cb", uri}, "token_endpoint_auth_method": "none"})
		require.NoError(t, err)
		status, out, _ := register(t, srv.URL, string(body))
		require.Equal(t, http.StatusBadRequest, status, uri)
		require.Equal(t, "invalid_redirect_uri", out["error"], uri)
		require.Contains(t, out["error_description"], "redirect_uris[1]", uri)
	}
}

func TestRegisterRefusesBadMetadata(t *testing.T) {
	t.Parallel()
	srv, _ := registrationServer(t)
	for _, body := range []string{
		`{}`,
		`not json`,
		`{"redirect_uris":["http://127.0.0.1/cb"],"grant_types":["client_credentials"]}`,
		`{"redirect_uris":["http://127.0.0.1/cb"],"response_types":["token"]}`,
		`{"redirect_uris":["http://127.0.0.1/cb"],"token_endpoint_auth_method":"private_key_jwt"}`,
		`{"redirect_uris":["http://127.0.0.1/cb"],"scope":"admin"}`,
	} {
		status, out, _ := register(t, srv.URL, body)
		require.Equal(t, http.StatusBadRequest, status, body)
		if body == `{}` {
			require.Equal(t, "invalid_redirect_uri", out["error"], body)
			continue
		}
		require.Equal(t, "invalid_client_metadata", out["error"], body)
	}
}

func TestRegisterBoundsBodySize(t *testing.T) {
	t.Parallel()
	srv, _ := registrationServer(t)
	big := `{"client_name":"` + strings.Repeat("x", oauth.MaxRegistrationBytes) + `","redirect_uris":["http://127.0.0.1/cb"]}`
	status, out, _ := register(t, srv.URL, big)
	require.Equal(t, http.StatusRequestEntityTooLarge, status)
	require.Equal(t, "invalid_client_metadata", out["error"])
}

func TestRegisterIsRateLimited(t *testing.T) {
	t.Parallel()
	srv, env := registrationServer(t)
	body := `{"redirect_uris":["http://127.0.0.1/cb"],"token_endpoint_auth_method":"none"}`
	for i := range connect.OAuthRegistrationsPerAddress {
		status, out, _ := register(t, srv.URL, body)
		require.Equal(t, http.StatusCreated, status, "registration %d: %v", i, out)
	}
	status, out, h := register(t, srv.URL, body)
	require.Equal(t, http.StatusTooManyRequests, status, out)
	require.Equal(t, "rate_limited", out["error"])
	require.Equal(t, "3600", h.Get("Retry-After"))

	env.Clock.Advance(connect.OAuthRegistrationWindow + time.Second)
	status, out, _ = register(t, srv.URL, body)
	require.Equal(t, http.StatusCreated, status, out)
}
