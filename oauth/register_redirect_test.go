package oauth_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRegisterRedirectURITable registers one client per redirect URI (with
// the default allow-list of https callbacks) and logs the answers as a table.
func TestRegisterRedirectURITable(t *testing.T) {
	t.Parallel()
	srv, _ := registrationServer(t)
	const ok = "201 registered"
	for _, tc := range []struct{ uri, want string }{
		{"https://claude.ai/api/mcp/auth_callback", ok},
		{"https://claude.com/api/mcp/auth_callback", ok},
		{"https://chatgpt.com/connector_platform_oauth_redirect", ok},
		{"http://127.0.0.1:33418/callback", ok},
		{"http://127.0.0.1/callback", ok},
		{"http://[::1]:8080/cb", ok},
		{"http://localhost:6274/oauth/callback", ok},
		{"http://localhost", ok},
		{"cursor://anysphere.cursor-retrieval/oauth/callback", ok},
		{"com.example.desktop:/oauth2redirect", ok},
		{"https://claude.ai/cb", "invalid_redirect_uri"},
		{"https://evil.example/api/mcp/auth_callback", "invalid_redirect_uri"},
		{"https://claude.ai.evil.example/api/mcp/auth_callback", "invalid_redirect_uri"},
		{"https://claude.ai/api/mcp/auth_callback/", "invalid_redirect_uri"},
		{"https://claude.ai/api/mcp/auth_callback?x=1", "invalid_redirect_uri"},
		{"https://claude.ai/api/mcp/auth_callback#x", "invalid_redirect_uri"},
		{"https://u:p@claude.ai/api/mcp/auth_callback", "invalid_redirect_uri"},
		{"https://127.0.0.1:33418/callback", "invalid_redirect_uri"},
		{"http://example.com/callback", "invalid_redirect_uri"},
		{"http://127.0.0.1.nip.io/cb", "invalid_redirect_uri"},
		{"http://localhost.evil.example/cb", "invalid_redirect_uri"},
		{"http://127.0.0.1:80@evil.example/cb", "invalid_redirect_uri"},
		{"HTTP://127.0.0.1/cb", "invalid_redirect_uri"},
		{"javascript:alert(1)", "invalid_redirect_uri"},
		{"data:text/html,hi", "invalid_redirect_uri"},
		{"file:///etc/passwd", "invalid_redirect_uri"},
		{"vbscript:msgbox", "invalid_redirect_uri"},
		{"blob:https://claude.ai/x", "invalid_redirect_uri"},
		{"about:blank", "invalid_redirect_uri"},
		{"ws://127.0.0.1/cb", "invalid_redirect_uri"},
		{"wss://claude.ai/cb", "invalid_redirect_uri"},
		{"/relative/callback", "invalid_redirect_uri"},
		{"", "invalid_redirect_uri"},
	} {
		body, err := json.Marshal(map[string]any{"redirect_uris": []string{tc.uri}, "token_endpoint_auth_method": "none"})
		require.NoError(t, err)
		status, out, _ := register(t, srv.URL, string(body))
		got := ok
		if status != http.StatusCreated {
			got, _ = out["error"].(string)
			require.Equal(t, http.StatusBadRequest, status, tc.uri)
		}
		t.Logf("%-55s %d %s", fmt.Sprintf("%q", tc.uri), status, describe(got, out))
		require.Equal(t, tc.want, got, tc.uri)
	}
}

// describe is a registration answer for the table: the error and its description.
func describe(got string, out map[string]any) string {
	if d, _ := out["error_description"].(string); d != "" {
		return got + ": " + d
	}
	if id, _ := out["client_id"].(string); id != "" {
		return "registered as " + id[:strings.IndexByte(id, '_')+1] + "…"
	}
	return got
}

// TestRegisterTakesOneJSONObject refuses anything but one JSON object.
func TestRegisterTakesOneJSONObject(t *testing.T) {
	t.Parallel()
	srv, _ := registrationServer(t)
	one := `{"redirect_uris":["http://127.0.0.1/cb"],"token_endpoint_auth_method":"none"}`
	status, out, _ := register(t, srv.URL, " \n"+one+"\n\t ")
	require.Equal(t, http.StatusCreated, status, "white space around the object is fine: %v", out)
	for _, body := range []string{
		one + one,
		one + "x",
		one + " {}",
		one + "null",
		one + "]",
		"null",
		`[` + one + `]`,
		`"` + one + `"`,
	} {
		status, out, _ := register(t, srv.URL, body)
		require.Equal(t, http.StatusBadRequest, status, body)
		require.Equal(t, "invalid_client_metadata", out["error"], body)
	}
}
