package mcp_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

// TestAssistantToolCallLimiter: the limits hook sees every tools/call on
// /chatgpt/mcp (and nothing else), and its refusal is sent before the tool
// runs with its HTTP status, retryAfterMs and Retry-After.
func TestAssistantToolCallLimiter(t *testing.T) {
	t.Parallel()
	var (
		mu    sync.Mutex
		calls = map[string]int{}
	)
	limiter := func(_ context.Context, p core.Principal, n int) error {
		mu.Lock()
		defer mu.Unlock()
		if calls[p.WorkspaceID]+n > 2 {
			return &core.Error{Code: core.CodeRateLimit, Message: "120 tool calls per minute per workspace", RetryAfterMs: 1500}
		}
		calls[p.WorkspaceID] += n
		return nil
	}
	b := setup(t, withLimiter(limiter))
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_workflow_guide","arguments":{},` + newMeta + `}}`
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{` + newMeta + `}}`

	// tools/list is not a tool call.
	resp := b.do(t, request{path: "/chatgpt/mcp", token: connAll, header: mcpHeaders("tools/list", ""), body: list})
	require.Equal(t, http.StatusOK, resp.status, "%s", resp.body)
	for range 2 {
		resp = b.do(t, request{path: "/chatgpt/mcp", token: connAll, header: mcpHeaders("tools/call", "get_workflow_guide"), body: call})
		require.Equal(t, http.StatusOK, resp.status, "%s", resp.body)
	}
	resp = b.do(t, request{path: "/chatgpt/mcp", token: connAll, header: mcpHeaders("tools/call", "get_workflow_guide"), body: call})
	require.Equal(t, http.StatusTooManyRequests, resp.status, "%s", resp.body)
	require.Equal(t, "2", resp.header.Get("Retry-After"))
	env := resp.json(t)
	requireEnvelope(t, env, core.CodeRateLimit)
	require.EqualValues(t, 1500, env["retryAfterMs"])

	// /mcp is not the assistant endpoint: the hook is not asked.
	resp = b.do(t, request{token: connAll, header: mcpHeaders("tools/call", "get_workflow_guide"), body: call})
	require.Equal(t, http.StatusOK, resp.status, "%s", resp.body)
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, map[string]int{b.env.WorkspaceID: 2}, calls)
}
