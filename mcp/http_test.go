package mcp_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/mcp"
)

const toolsList = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + newMeta + `}}`

func TestUnauthenticatedIs401WithChallenge(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, tc := range []struct{ name, path, token, wellKnown string }{
		{"no token", "/mcp", "", "/.well-known/oauth-protected-resource/mcp"},
		{"no token gifting", "/mcp?profile=gifting", "", "/.well-known/oauth-protected-resource/mcp"},
		{"malformed key", "/mcp", "gwk_nothex", "/.well-known/oauth-protected-resource/mcp"},
		{"unknown key", "/mcp", "gwk_" + strings.Repeat("ab", 32), "/.well-known/oauth-protected-resource/mcp"},
		{"no token chatgpt", "/chatgpt/mcp", "", "/.well-known/oauth-protected-resource/chatgpt/mcp"},
		{"key on chatgpt", "/chatgpt/mcp", b.env.OwnerKey, "/.well-known/oauth-protected-resource/chatgpt/mcp"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			resp := b.do(t, request{path: tc.path, token: tc.token, header: mcpHeaders("tools/list", ""), body: toolsList})
			require.Equal(t, http.StatusUnauthorized, resp.status, "%s", resp.body)
			require.Equal(t, `Bearer resource_metadata="`+b.env.SiteURL+tc.wellKnown+`"`, resp.header.Get("WWW-Authenticate"))
			require.Equal(t, "application/json", resp.header.Get("Content-Type"))
			env := resp.json(t)
			requireEnvelope(t, env, core.CodeAuthRequired)
			require.NotEmpty(t, env["url"])
		})
	}
}

func TestRevokedKeyIs401(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, key := b.env.AddMember(t, core.RoleMember)
	ok := b.do(t, request{token: key, header: mcpHeaders("tools/list", ""), body: toolsList})
	require.Equal(t, http.StatusOK, ok.status, "%s", ok.body)

	p, err := b.env.App.Connect.Authenticate(t.Context(), key)
	require.NoError(t, err)
	require.NoError(t, b.env.App.Identity.RevokeAPIKey(t.Context(), b.env.WorkspaceID, p.CredentialID))
	resp := b.do(t, request{token: key, header: mcpHeaders("tools/list", ""), body: toolsList})
	require.Equal(t, http.StatusUnauthorized, resp.status)
	requireEnvelope(t, resp.json(t), core.CodeAuthRequired)
}

func TestChatGPTConnectionWithoutReadScopeIs403(t *testing.T) {
	t.Parallel()
	b := setup(t)
	resp := b.do(t, request{path: "/chatgpt/mcp", token: connNoScopes, header: mcpHeaders("tools/list", ""), body: toolsList})
	require.Equal(t, http.StatusForbidden, resp.status)
	require.Contains(t, resp.header.Get("WWW-Authenticate"), `error="insufficient_scope", scope="gifts:read"`)
	requireEnvelope(t, resp.json(t), core.CodeInsufficientScope)
}

func TestAuthenticatedGetAndDeleteAre405(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, method := range []string{http.MethodGet, http.MethodDelete, http.MethodPut} {
		resp := b.do(t, request{method: method, token: b.env.OwnerKey})
		require.Equal(t, http.StatusMethodNotAllowed, resp.status, method)
		require.Equal(t, "POST", resp.header.Get("Allow"))
		requireEnvelope(t, resp.json(t), core.CodeMethodNotAllowed)
	}
	// Without credentials the answer is 401, not 405.
	resp := b.do(t, request{method: http.MethodGet})
	require.Equal(t, http.StatusUnauthorized, resp.status)
}

func TestOrigin(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, origin := range []string{"https://evil.example", "null", "http://127.0.0.1:1"} {
		resp := b.do(t, request{token: b.env.OwnerKey, header: map[string]string{"Origin": origin, "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}, body: toolsList})
		require.Equal(t, http.StatusForbidden, resp.status, origin)
		requireEnvelope(t, resp.json(t), core.CodeOriginForbidden)
	}
	// The site's own origin passes.
	resp := b.do(t, request{token: b.env.OwnerKey, header: map[string]string{"Origin": b.env.SiteURL, "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}, body: toolsList})
	require.Equal(t, http.StatusOK, resp.status, "%s", resp.body)
}

func TestBodyRules(t *testing.T) {
	t.Parallel()
	b := setup(t)
	t.Run("too large", func(t *testing.T) {
		t.Parallel()
		big := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", mcp.MaxBodyBytes) + `"}}`
		resp := b.do(t, request{token: b.env.OwnerKey, body: big})
		require.Equal(t, http.StatusRequestEntityTooLarge, resp.status)
		requireEnvelope(t, resp.json(t), core.CodeRequestTooLarge)
	})
	t.Run("not JSON content type", func(t *testing.T) {
		t.Parallel()
		resp := b.do(t, request{token: b.env.OwnerKey, header: map[string]string{"Content-Type": "text/plain"}, body: toolsList})
		require.Equal(t, http.StatusUnsupportedMediaType, resp.status)
		requireEnvelope(t, resp.json(t), core.CodeUnsupportedMediaType)
	})
	t.Run("invalid JSON", func(t *testing.T) {
		t.Parallel()
		resp := b.do(t, request{token: b.env.OwnerKey, body: `{"jsonrpc":"2.0","id":1,`})
		require.Equal(t, http.StatusBadRequest, resp.status)
		require.EqualValues(t, -32700, resp.rpcError(t)["code"])
	})
	t.Run("not JSON-RPC", func(t *testing.T) {
		t.Parallel()
		resp := b.do(t, request{token: b.env.OwnerKey, body: `{"hello":"world"}`})
		require.Equal(t, http.StatusBadRequest, resp.status)
		require.EqualValues(t, -32600, resp.rpcError(t)["code"])
	})
	t.Run("no Accept header", func(t *testing.T) {
		t.Parallel()
		resp := b.do(t, request{token: b.env.OwnerKey, header: map[string]string{"Accept": "", "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}, body: toolsList})
		require.Equal(t, http.StatusOK, resp.status, "%s", resp.body)
	})
	t.Run("unknown profile", func(t *testing.T) {
		t.Parallel()
		resp := b.do(t, request{path: "/mcp?profile=everything", token: b.env.OwnerKey, body: toolsList})
		require.Equal(t, http.StatusBadRequest, resp.status)
		env := resp.json(t)
		requireEnvelope(t, env, core.CodeValidation)
		require.Contains(t, env["error"], "profile")
	})
}

func TestInitializedNotificationIs202(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, version := range []string{"2025-11-25", "2025-06-18", "2025-03-26"} {
		resp := b.do(t, request{token: b.env.OwnerKey, header: map[string]string{"Mcp-Protocol-Version": version},
			body: `{"jsonrpc":"2.0","method":"notifications/initialized"}`})
		require.Equal(t, http.StatusAccepted, resp.status, "%s: %s", version, resp.body)
		require.Empty(t, resp.body)
	}
}

func TestInitializeOlderVersions(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, version := range []string{"2025-11-25", "2025-06-18", "2025-03-26"} {
		resp := b.do(t, request{token: b.env.OwnerKey, body: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` +
			version + `","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`})
		require.Equal(t, http.StatusOK, resp.status, "%s", resp.body)
		result := resp.json(t)["result"].(map[string]any)
		require.Equal(t, version, result["protocolVersion"])
		require.Equal(t, "giftwell", result["serverInfo"].(map[string]any)["name"])
	}
	// An initialize for a version outside the four is answered with the
	// newest handshake version, as the MCP lifecycle requires.
	resp := b.do(t, request{token: b.env.OwnerKey, body: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`})
	require.Equal(t, http.StatusOK, resp.status)
	require.Equal(t, "2025-11-25", resp.json(t)["result"].(map[string]any)["protocolVersion"])
}

func TestHeaderMismatchIs32020(t *testing.T) {
	t.Parallel()
	b := setup(t)
	call := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_gifts","arguments":{},` + newMeta + `}}`
	for _, tc := range []struct {
		name   string
		header map[string]string
		body   string
	}{
		{"Mcp-Method differs", mcpHeaders("tools/call", ""), toolsList},
		{"Mcp-Method missing", map[string]string{"Mcp-Protocol-Version": "2026-07-28"}, toolsList},
		{"Mcp-Name differs", mcpHeaders("tools/call", "get_gift"), call},
		{"Mcp-Name missing", mcpHeaders("tools/call", ""), call},
		{"version header differs from _meta", map[string]string{"Mcp-Protocol-Version": "2025-06-18", "Mcp-Method": "tools/list"}, toolsList},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			resp := b.do(t, request{token: b.env.OwnerKey, header: tc.header, body: tc.body})
			require.Equal(t, http.StatusBadRequest, resp.status, "%s", resp.body)
			require.EqualValues(t, -32020, resp.rpcError(t)["code"], "%s", resp.body)
		})
	}
}

func TestUnsupportedVersionIs32022(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, version := range []string{"2024-11-05", "1999-01-01", "2099-01-01", "latest"} {
		resp := b.do(t, request{token: b.env.OwnerKey,
			header: map[string]string{"Mcp-Protocol-Version": version, "Mcp-Method": "tools/list"}, body: toolsList})
		require.Equal(t, http.StatusBadRequest, resp.status, "%s: %s", version, resp.body)
		e := resp.rpcError(t)
		require.EqualValues(t, -32022, e["code"])
		require.Equal(t, []any{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"}, e["data"].(map[string]any)["supported"])
		require.EqualValues(t, 1, resp.json(t)["id"])
	}
	// The same for a version named only in _meta, under the new protocol's header.
	resp := b.do(t, request{token: b.env.OwnerKey, header: map[string]string{"Mcp-Protocol-Version": "2099-01-01", "Mcp-Method": "tools/list"},
		body: strings.ReplaceAll(toolsList, `"2026-07-28"`, `"2099-01-01"`)})
	require.Equal(t, http.StatusBadRequest, resp.status)
	require.EqualValues(t, -32022, resp.rpcError(t)["code"])
}

func TestServerDiscover(t *testing.T) {
	t.Parallel()
	b := setup(t)
	resp := b.do(t, request{token: b.env.OwnerKey, header: mcpHeaders("server/discover", ""),
		body: `{"jsonrpc":"2.0","id":"d1","method":"server/discover","params":{` + newMeta + `}}`})
	require.Equal(t, http.StatusOK, resp.status, "%s", resp.body)
	m := resp.json(t)
	require.Equal(t, "d1", m["id"])
	result := m["result"].(map[string]any)
	require.Equal(t, []any{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"}, result["supportedVersions"])
	require.Equal(t, "complete", result["resultType"])
	caps := result["capabilities"].(map[string]any)
	require.Contains(t, caps, "tools")
	require.Contains(t, caps, "prompts")
	require.Contains(t, caps, "resources")
	require.NotContains(t, caps, "logging")
	require.NotEmpty(t, result["instructions"])
	server := result["_meta"].(map[string]any)["io.modelcontextprotocol/serverInfo"].(map[string]any)
	require.Equal(t, "giftwell", server["name"])
	require.Equal(t, "Giftwell", server["title"])
	// Under the old protocols discover does not exist.
	old := b.do(t, request{token: b.env.OwnerKey, header: map[string]string{"Mcp-Protocol-Version": "2025-06-18"},
		body: `{"jsonrpc":"2.0","id":2,"method":"server/discover"}`})
	require.EqualValues(t, -32601, old.rpcError(t)["code"])
}

func TestNewProtocolResultsAreComplete(t *testing.T) {
	t.Parallel()
	b := setup(t)
	resp := b.do(t, request{token: b.env.OwnerKey, header: mcpHeaders("tools/call", "get_workflow_guide"),
		body: `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"get_workflow_guide","arguments":{},` + newMeta + `}}`})
	require.Equal(t, http.StatusOK, resp.status, "%s", resp.body)
	result := resp.json(t)["result"].(map[string]any)
	require.Equal(t, "complete", result["resultType"])
	require.Equal(t, "giftwell", result["_meta"].(map[string]any)["io.modelcontextprotocol/serverInfo"].(map[string]any)["name"])
	data := result["structuredContent"].(map[string]any)["data"].(map[string]any)
	require.Equal(t, "test", data["mode"])
	require.Equal(t, b.env.SiteURL+"/mcp", data["mcpEndpoint"])
}

func TestUnknownResourceIs32002(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, version := range []string{"2026-07-28", "2025-06-18"} {
		header := map[string]string{"Mcp-Protocol-Version": version}
		body := `{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"giftwell://nope"}}`
		if version == "2026-07-28" {
			header = mcpHeaders("resources/read", "giftwell://nope")
			body = `{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"giftwell://nope",` + newMeta + `}}`
		}
		resp := b.do(t, request{token: b.env.OwnerKey, header: header, body: body})
		require.Equal(t, http.StatusOK, resp.status, "%s", resp.body)
		e := resp.rpcError(t)
		require.EqualValues(t, -32002, e["code"], version)
		require.Equal(t, "giftwell://nope", e["data"].(map[string]any)["uri"])
	}
}

func TestUnknownPathIs404(t *testing.T) {
	t.Parallel()
	b := setup(t)
	resp := b.do(t, request{path: "/mcp/extra", token: b.env.OwnerKey, body: toolsList})
	require.Equal(t, http.StatusNotFound, resp.status)
	requireEnvelope(t, resp.json(t), core.CodeNotFound)
}

func TestRequestsAreLogged(t *testing.T) {
	t.Parallel()
	b := setup(t)
	resp := b.do(t, request{token: b.env.OwnerKey, header: mcpHeaders("tools/list", ""), body: toolsList})
	require.Equal(t, http.StatusOK, resp.status)
	logs := b.log.String()
	require.Contains(t, logs, `"msg":"mcp request"`)
	require.Contains(t, logs, `"rpc":"tools/list"`)
	require.Contains(t, logs, `"workspace":"`+b.env.WorkspaceID+`"`)
	require.Contains(t, logs, `"status":200`)
	require.NotContains(t, logs, b.env.OwnerKey)
}
