package mcp_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// TestDatabaseOutageOverMCP: while the database is down, a read tool fails
// with SERVICE_UNAVAILABLE retry_later (retryable, retryAfterMs), a tool
// that writes with SERVICE_UNAVAILABLE reread_and_retry, and a key that
// cannot be looked up is refused with HTTP 503 and the same envelope, never
// 401 AUTH_REQUIRED with a challenge. Nothing is INTERNAL_ERROR; when the
// database is back the same calls succeed.
func TestDatabaseOutageOverMCP(t *testing.T) {
	t.Parallel()
	b := setup(t, withFaults())
	// connAll is resolved without the database, so its calls reach the tools.
	a := agent{t: t, cs: b.connect(t, "/mcp", connAll, "2026-07-28")}
	create := map[string]any{"name": "During the outage", "mode": "always_on", "productId": "gourmet-snack-crate", "senderName": "S", "senderCompany": "A"}
	unavailable := func(env map[string]any, next string) {
		t.Helper()
		require.Equal(t, "SERVICE_UNAVAILABLE", env["code"], "%v", env)
		require.Equal(t, next, env["nextAction"], "%v", env)
		require.Equal(t, next == "retry_later", env["retryable"], "%v", env)
		require.Positive(t, env["retryAfterMs"], "%v", env)
	}

	b.env.Faults.Down()
	out, isError := a.call("list_campaigns", map[string]any{})
	require.True(t, isError)
	unavailable(out, "retry_later")
	out, isError = a.call("create_campaign", create)
	require.True(t, isError)
	unavailable(out, "reread_and_retry")

	res := b.do(t, request{token: b.env.OwnerKey, header: mcpHeaders("tools/call", "list_campaigns"),
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_campaigns","arguments":{},` + newMeta + `}}`})
	require.Equal(t, http.StatusServiceUnavailable, res.status, "%s", res.body)
	require.Empty(t, res.header.Get("WWW-Authenticate"), "an outage is no credential error")
	require.NotEmpty(t, res.header.Get("Retry-After"))
	unavailable(res.json(t), "retry_later")
	require.NotContains(t, b.log.String(), "INTERNAL_ERROR")

	require.NoError(t, b.env.Faults.Up())
	require.Eventually(t, func() bool {
		res, err := a.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "list_campaigns", Arguments: map[string]any{}})
		return err == nil && !res.IsError
	}, 5*time.Second, 50*time.Millisecond, "served again within 5 seconds of the database returning")
	a.ok("create_campaign", create)
	key := agent{t: t, cs: b.connect(t, "/mcp", b.env.OwnerKey, "2026-07-28")}
	key.ok("list_campaigns", map[string]any{})
}
