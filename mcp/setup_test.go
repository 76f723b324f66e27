package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/internal/testdb"
	"github.com/giftwell/giftwell/mcp"
	"github.com/giftwell/giftwell/tools"
)

// TestMain stops the package's throwaway PostgreSQL cluster after the tests.
func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// Connection tokens the test authenticator accepts in place of OAuth
// tokens (the OAuth server arrives in a later issue): each names its scopes.
const (
	connAll      = "mco_access_test_all"
	connRead     = "mco_access_test_read"
	connNoScopes = "mco_access_test_none"
)

// bundle is one test's server: an App on its own database, the MCP handler
// behind a real listener, and the log it writes.
type bundle struct {
	env   *apptest.Env
	srv   *httptest.Server
	tools []tools.Tool
	log   *apptest.LogBuffer
}

type setupOptions struct {
	extraTools func(app *giftwell.App) []tools.Tool
	limiter    mcp.ToolCallLimiter
	faults     bool
}

// setup starts the MCP face on a fresh workspace. Keys authenticate through
// core; the connAll, connRead and connNoScopes tokens stand in for OAuth
// connections of the workspace's owner.
func setup(t testing.TB, opts ...func(*setupOptions)) *bundle {
	t.Helper()
	var o setupOptions
	for _, f := range opts {
		f(&o)
	}
	var envOpts []apptest.Option
	if o.faults {
		envOpts = append(envOpts, apptest.WithFaults())
	}
	env := apptest.New(t, envOpts...)
	list := tools.All(env.App)
	if o.extraTools != nil {
		list = append(list, o.extraTools(env.App)...)
	}
	grant := env.ConnectedApp(t, "Test assistant").CredentialID
	logs := &apptest.LogBuffer{}
	h := mcp.NewHandler(mcp.Config{
		App:                     env.App,
		Tools:                   list,
		Log:                     slog.New(slog.NewJSONHandler(logs, nil)),
		LimitAssistantToolCalls: o.limiter,
		Authenticate: func(ctx context.Context, bearer string) (core.Principal, error) {
			scopes, ok := map[string][]core.Scope{
				connAll:      core.AllScopes,
				connRead:     {core.ScopeRead},
				connNoScopes: nil,
			}[bearer]
			if !ok {
				return env.App.Connect.Authenticate(ctx, bearer)
			}
			return core.Principal{WorkspaceID: env.WorkspaceID, UserID: env.OwnerID, Role: core.RoleOwner,
				Via: core.ViaConnection, Scopes: scopes, Mode: core.ModeTest, CredentialID: grant}, nil
		},
	})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &bundle{env: env, srv: srv, tools: list, log: logs}
}

// withLimiter limits the assistant endpoint's tool calls with l.
func withLimiter(l mcp.ToolCallLimiter) func(*setupOptions) {
	return func(o *setupOptions) { o.limiter = l }
}

// withFaults routes the App's database through a fault proxy (env.Faults).
func withFaults() func(*setupOptions) {
	return func(o *setupOptions) { o.faults = true }
}

// withTools adds tools to the registry the handler serves.
func withTools(f func(app *giftwell.App) []tools.Tool) func(*setupOptions) {
	return func(o *setupOptions) { o.extraTools = f }
}

// bearer is a RoundTripper that adds an Authorization header.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connect opens a go-sdk client session at path with token, pinned to
// protocol version (empty: the SDK's latest).
func (b *bundle) connect(t testing.TB, path, token, version string) *sdk.ClientSession {
	t.Helper()
	client := sdk.NewClient(&sdk.Implementation{Name: "giftwell-test", Version: "1.0.0"}, nil)
	transport := &sdk.StreamableClientTransport{
		Endpoint:             b.srv.URL + path,
		HTTPClient:           &http.Client{Transport: bearer{token}},
		DisableStandaloneSSE: true,
		MaxRetries:           -1,
	}
	cs, err := client.Connect(context.Background(), transport, &sdk.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// response is a raw HTTP answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

// json decodes the body as an object.
func (r response) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.body, &m), "body: %s", r.body)
	return m
}

// rpcError returns the JSON-RPC error object of the body.
func (r response) rpcError(t testing.TB) map[string]any {
	t.Helper()
	m := r.json(t)
	require.Equal(t, "2.0", m["jsonrpc"], "body: %s", r.body)
	e, ok := m["error"].(map[string]any)
	require.True(t, ok, "no error in %s", r.body)
	return e
}

// request is a raw HTTP request to the handler.
type request struct {
	method string // default POST
	path   string // default /mcp
	token  string // "" sends no Authorization header
	header map[string]string
	body   string
}

// mcpHeaders are the headers of a 2026-07-28 request for method (and name).
func mcpHeaders(method, name string) map[string]string {
	h := map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": method}
	if name != "" {
		h["Mcp-Name"] = name
	}
	return h
}

// newMeta is the _meta every 2026-07-28 request carries.
const newMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

func (b *bundle) do(t testing.TB, req request) response {
	t.Helper()
	if req.method == "" {
		req.method = http.MethodPost
	}
	if req.path == "" {
		req.path = "/mcp"
	}
	var body io.Reader
	if req.body != "" {
		body = strings.NewReader(req.body)
	}
	r, err := http.NewRequest(req.method, b.srv.URL+req.path, body)
	require.NoError(t, err)
	if req.body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	r.Header.Set("Accept", "application/json, text/event-stream")
	if req.token != "" {
		r.Header.Set("Authorization", "Bearer "+req.token)
	}
	for k, v := range req.header {
		r.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(r)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return response{status: resp.StatusCode, header: resp.Header, body: data}
}

// requireEnvelope checks a JSON error envelope: its code, nextAction and
// retryable come from core's table for that code.
func requireEnvelope(t testing.TB, env map[string]any, code core.Code) {
	t.Helper()
	info := code.Info()
	require.Equal(t, string(code), env["code"], "envelope: %v", env)
	require.Equal(t, string(info.NextAction), env["nextAction"], "envelope: %v", env)
	require.Equal(t, info.Retryable, env["retryable"], "envelope: %v", env)
	require.NotEmpty(t, env["error"], "envelope: %v", env)
}

// toolEnvelope returns the envelope of an isError tool result, checking that
// structuredContent and the text content carry the same JSON.
func toolEnvelope(t testing.TB, res *sdk.CallToolResult) map[string]any {
	t.Helper()
	require.True(t, res.IsError, "want an error result, got %v", res.StructuredContent)
	return sameJSON(t, res)
}

// sameJSON returns structuredContent as a map after checking that the one
// text content holds the same JSON.
func sameJSON(t testing.TB, res *sdk.CallToolResult) map[string]any {
	t.Helper()
	require.Len(t, res.Content, 1)
	text, ok := res.Content[0].(*sdk.TextContent)
	require.True(t, ok, "content is %T", res.Content[0])
	var fromText map[string]any
	require.NoError(t, json.Unmarshal([]byte(text.Text), &fromText))
	raw, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	var structured map[string]any
	require.NoError(t, json.Unmarshal(raw, &structured))
	require.Equal(t, structured, fromText)
	return structured
}

// names lists the tools' names in order.
func names(list []tools.Tool) []string {
	out := make([]string, len(list))
	for i, t := range list {
		out[i] = t.Name
	}
	return out
}
