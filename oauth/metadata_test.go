package oauth_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/oauth"
)

func TestProtectedResourceHandler(t *testing.T) {
	t.Parallel()
	cfg := core.Config{SiteURL: "https://gifts.example.com"}
	for _, tc := range []struct{ path, resource string }{
		{"/mcp", "https://gifts.example.com/mcp"},
		{"/chatgpt/mcp", "https://gifts.example.com/chatgpt/mcp"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(oauth.ProtectedResourceHandler(cfg, tc.path))
			t.Cleanup(srv.Close)

			resp, err := http.Get(srv.URL + oauth.WellKnownPrefix + tc.path)
			require.NoError(t, err)
			defer resp.Body.Close()
			require.Equal(t, http.StatusOK, resp.StatusCode)
			require.Equal(t, "application/json", resp.Header.Get("Content-Type"))

			var doc map[string]any
			require.NoError(t, json.NewDecoder(resp.Body).Decode(&doc))
			require.Equal(t, map[string]any{
				"resource":                 tc.resource,
				"authorization_servers":    []any{"https://gifts.example.com"},
				"scopes_supported":         []any{"gifts:read", "gifts:write", "gifts:links:read"},
				"bearer_methods_supported": []any{"header"},
				"resource_name":            "Giftwell",
			}, doc)
		})
	}
}

func TestProtectedResourceHandlerRefusesPost(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(oauth.ProtectedResourceHandler(core.Config{SiteURL: "http://127.0.0.1:8080"}, "/mcp"))
	t.Cleanup(srv.Close)

	resp, err := http.Post(srv.URL, "application/json", nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	require.Equal(t, "GET, HEAD", resp.Header.Get("Allow"))
	var env map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&env))
	require.Equal(t, "METHOD_NOT_ALLOWED", env["code"])
	require.Equal(t, "stop", env["nextAction"])
	require.Equal(t, false, env["retryable"])
}
