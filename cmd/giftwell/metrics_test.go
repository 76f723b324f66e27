package main

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/internal/metrics"
)

// mcpToolCall is a 2026-07-28 tools/call of get_workflow_guide.
const mcpToolCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_workflow_guide","arguments":{},` +
	`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`

// send makes one request to srv and returns the response and its body.
func send(t *testing.T, method, url, key, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	require.NoError(t, err)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.NoError(t, res.Body.Close())
	return res, string(b)
}

// callTool sends mcpToolCall to /mcp with key.
func callTool(t *testing.T, srvURL, key string) (*http.Response, string) {
	t.Helper()
	return send(t, http.MethodPost, srvURL+"/mcp", key, mcpToolCall, map[string]string{
		"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "get_workflow_guide"})
}

func TestMetricsCountRequestsPoolAndJobs(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	m := metrics.New()
	m.WatchPool(env.App.DB)
	srv := httptest.NewServer(routes(env.App, slog.New(slog.DiscardHandler), withMetrics(m)))
	t.Cleanup(srv.Close)

	res, body := send(t, http.MethodGet, srv.URL+"/api/v1/workflow", env.OwnerKey, "", nil)
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	res, body = send(t, http.MethodGet, srv.URL+"/api/v1/campaigns/cmp_nosuchcampaign", env.OwnerKey, "", nil)
	require.Equal(t, http.StatusNotFound, res.StatusCode, body)
	res, body = callTool(t, srv.URL, env.OwnerKey)
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	res, _ = send(t, http.MethodGet, srv.URL+"/login", "", "", nil)
	require.Equal(t, http.StatusOK, res.StatusCode)

	// A job runs: the River client counts its outcome in the same registry.
	startJobs(t, env, &outbox{}, m.JobMiddleware())
	scrape := func() string {
		res, body := send(t, http.MethodGet, srv.URL+"/metrics", "", "", nil)
		require.Equal(t, http.StatusOK, res.StatusCode)
		require.Contains(t, res.Header.Get("Content-Type"), "text/plain")
		return body
	}
	require.Eventually(t, func() bool {
		return strings.Contains(scrape(), `giftwell_river_jobs_total{kind="prune_sign_in_records",outcome="completed"}`)
	}, 20*time.Second, 50*time.Millisecond, "the periodic sign-in pruning ran on start and was counted")

	got := scrape()
	for _, want := range []string{
		`giftwell_http_requests_total{face="rest",route="GET /workflow",status="200"} 1`,
		`giftwell_http_requests_total{face="rest",route="GET /campaigns/{id}",status="404"} 1`,
		`giftwell_http_requests_total{face="mcp",route="/mcp tools/call get_workflow_guide",status="200"} 1`,
		`giftwell_http_requests_total{face="web",route="web",status="200"} 1`,
		`giftwell_http_requests_total{face="site",route="/metrics",status="200"}`,
		`giftwell_http_request_duration_seconds_bucket{face="rest",route="GET /workflow",le="+Inf"} 1`,
		`giftwell_db_pool_total_conns `,
		`giftwell_db_pool_acquired_conns `,
		`giftwell_db_pool_max_conns `,
	} {
		require.Contains(t, got, want)
	}
	require.NotContains(t, got, "cmp_nosuchcampaign", "no raw path or id is a label")
	require.NotContains(t, got, env.OwnerKey)
}
