package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/mcp"
	"github.com/giftwell/giftwell/rest"
	"github.com/giftwell/giftwell/tools"
)

// failIn names the error envelopeTool returns.
type failIn struct {
	Kind string `json:"kind" schema:"enum=playbook_off|plain"`
}

// envelopeTool fails as asked, on both faces: an open_url code without a
// url of its own, or an unexpected error.
func envelopeTool() tools.Tool {
	return tools.Define("fail_envelope_test", "Fails as asked, on MCP and REST alike. Test only.", tools.ScopeRead, core.ActRead,
		func(_ context.Context, _ core.Principal, in failIn) (struct{}, error) {
			if in.Kind == "plain" {
				return struct{}{}, errors.New("secret database detail")
			}
			return struct{}{}, core.Errorf(core.CodePlaybookOff, "the playbook is paused")
		},
		tools.Title("Fail"), tools.ReadOnly(), tools.REST(http.MethodGet, "/test-envelope-failures/{kind}", http.StatusOK))
}

// TestMCPAndRESTWriteTheSameEnvelope sends the same failing call to both
// faces of one server and compares the bytes: REST's body and the text of
// MCP's isError result are core's envelope, identical.
func TestMCPAndRESTWriteTheSameEnvelope(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	list := append(tools.All(env.App), envelopeTool())
	mux := http.NewServeMux()
	mux.Handle("/api/v1/", http.StripPrefix("/api/v1", rest.NewHandler(rest.Config{App: env.App, Tools: list})))
	mux.Handle("/mcp", mcp.NewHandler(mcp.Config{App: env.App, Tools: list}))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	client := sdk.NewClient(&sdk.Implementation{Name: "envelope-test", Version: "1.0.0"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint: srv.URL + "/mcp", HTTPClient: &http.Client{Transport: bearerTransport{env.OwnerKey}},
		DisableStandaloneSSE: true, MaxRetries: -1,
	}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })

	restBody := func(method, path, body string) (int, string) {
		var r io.Reader
		if body != "" {
			r = strings.NewReader(body)
		}
		req, err := http.NewRequest(method, srv.URL+"/api/v1"+path, r)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+env.OwnerKey)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := srv.Client().Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		raw, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, string(raw)
	}
	for _, tc := range []struct {
		name               string
		tool               string
		args               map[string]any
		method, path, body string
		status             int
		code               string
	}{
		{"not found", "get_campaign", map[string]any{"id": "cmp_000000000000000000000000"},
			"GET", "/campaigns/cmp_000000000000000000000000", "", http.StatusNotFound, "NOT_FOUND"},
		{"invalid argument", "list_campaigns", map[string]any{"mode": "weekly"},
			"GET", "/campaigns?mode=weekly", "", http.StatusBadRequest, "VALIDATION_ERROR"},
		{"signed-in only, with the tool's url", "create_balance_topup", map[string]any{"cents": 5000, "idempotencyKey": "topup-0001"},
			"POST", "/balance/topup", `{"cents":5000,"idempotencyKey":"topup-0001"}`, http.StatusForbidden, "HUMAN_APPROVAL_REQUIRED"},
		{"open_url without a url of its own", "fail_envelope_test", map[string]any{"kind": "playbook_off"},
			"GET", "/test-envelope-failures/playbook_off", "", http.StatusConflict, "PLAYBOOK_OFF"},
		{"unexpected error", "fail_envelope_test", map[string]any{"kind": "plain"},
			"GET", "/test-envelope-failures/plain", "", http.StatusInternalServerError, "INTERNAL_ERROR"},
	} {
		status, viaREST := restBody(tc.method, tc.path, tc.body)
		require.Equal(t, tc.status, status, "%s: %s", tc.name, viaREST)
		require.Contains(t, viaREST, `"code":"`+tc.code+`"`, tc.name)

		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tc.tool, Arguments: tc.args})
		require.NoError(t, err, tc.name)
		require.True(t, res.IsError, tc.name)
		viaMCP := res.Content[0].(*sdk.TextContent).Text
		require.Equal(t, viaREST, viaMCP, "%s: the same envelope, byte for byte", tc.name)
		var fromREST map[string]any
		require.NoError(t, json.Unmarshal([]byte(viaREST), &fromREST))
		structured, err := json.Marshal(res.StructuredContent)
		require.NoError(t, err)
		var fromMCP map[string]any
		require.NoError(t, json.Unmarshal(structured, &fromMCP))
		require.Equal(t, fromREST, fromMCP, "%s: structuredContent too", tc.name)
		if tc.code == "HUMAN_APPROVAL_REQUIRED" || tc.code == "PLAYBOOK_OFF" {
			require.NotEmpty(t, fromREST["url"], "%s: open_url carries a url", tc.name)
		}
		require.NotContains(t, viaMCP, "secret", tc.name)
	}
}
