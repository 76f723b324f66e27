package apptest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The benchmarks' floor: a bare go-sdk server with no Giftwell code at all,
// so that a benchmark can say how far above it Giftwell's own path runs.

// BareSelect1Tool is the one tool of BareSelect1's server.
const BareSelect1Tool = "select_one"

// BareSelect1 starts a bare go-sdk stateless JSON server whose one tool
// (BareSelect1Tool) runs SELECT 1 on pool, and returns its URL; it stops
// with t.
func BareSelect1(t testing.TB, pool *pgxpool.Pool) string {
	t.Helper()
	server := sdk.NewServer(&sdk.Implementation{Name: "bare", Version: "1"}, nil)
	type out struct {
		One int `json:"one"`
	}
	sdk.AddTool(server, &sdk.Tool{Name: BareSelect1Tool, Description: "SELECT 1"},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, out, error) {
			var o out
			err := pool.QueryRow(ctx, "SELECT 1").Scan(&o.One)
			return nil, o, err
		})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// BenchTransport is an HTTP transport for benchmarks with concurrent
// callers: enough idle connections per host that no caller opens a new one.
func BenchTransport() *http.Transport {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns, tr.MaxIdleConnsPerHost = 256, 256
	return tr
}

// MCPSession connects a go-sdk client to the MCP endpoint over tr, with
// token as its bearer when not empty; it closes with t.
func MCPSession(t testing.TB, endpoint, token string, tr http.RoundTripper) *sdk.ClientSession {
	t.Helper()
	hc := &http.Client{Transport: tr}
	if token != "" {
		hc.Transport = bearerTransport{token: token, next: tr}
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(),
		&sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// bearerTransport adds an Authorization header to every request.
type bearerTransport struct {
	token string
	next  http.RoundTripper
}

// RoundTrip sends r with the bearer token.
func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}
