package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/mcp"
	"github.com/giftwell/giftwell/tools"
)

// countingTools are a tool that counts its calls and one that answers about
// 1 MiB, for the batch bounds.
func countingTools(calls *atomic.Int64) func(*giftwell.App) []tools.Tool {
	return func(*giftwell.App) []tools.Tool {
		return []tools.Tool{
			tools.Define("count_test", "Count a call (test stand-in).", tools.ScopeRead, core.ActRead,
				func(context.Context, core.Principal, struct{}) (struct{}, error) {
					calls.Add(1)
					return struct{}{}, nil
				}, tools.Title("Count"), tools.ReadOnly()),
			tools.Define("big_test", "Answer about 1 MiB (test stand-in).", tools.ScopeRead, core.ActRead,
				func(context.Context, core.Principal, struct{}) (map[string]string, error) {
					calls.Add(1)
					return map[string]string{"text": strings.Repeat("x", 1<<20)}, nil
				}, tools.Title("Big"), tools.ReadOnly()),
		}
	}
}

// batchOf is a 2025-03-26 batch of n tools/call messages for tool.
func batchOf(n int, tool string) string {
	msgs := make([]string, n)
	for i := range msgs {
		msgs[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, i+1, tool)
	}
	return "[" + strings.Join(msgs, ",") + "]"
}

var oldVersion = map[string]string{"Mcp-Protocol-Version": "2025-03-26"}

// TestBatchOverTheBoundIsRefusedWhole: the finding's 3,000-call batch gets
// one small -32600 error and runs nothing; a batch of MaxBatchMessages runs
// every call.
func TestBatchOverTheBoundIsRefusedWhole(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	b := setup(t, withTools(countingTools(&calls)))

	body := batchOf(3000, "count_test")
	require.Greater(t, len(body), 200_000)
	resp := b.do(t, request{token: b.env.OwnerKey, header: oldVersion, body: body})
	require.Equal(t, http.StatusBadRequest, resp.status, "%s", resp.body)
	require.Less(t, len(resp.body), 1024, "one error, not 3,000 answers")
	e := resp.rpcError(t)
	require.EqualValues(t, -32600, e["code"])
	require.Contains(t, e["message"], "at most 20 messages")
	require.Nil(t, resp.json(t)["id"])
	require.Zero(t, calls.Load(), "no call of the batch ran")

	resp = b.do(t, request{token: b.env.OwnerKey, header: oldVersion, body: batchOf(mcp.MaxBatchMessages+1, "count_test")})
	require.Equal(t, http.StatusBadRequest, resp.status, "%s", resp.body)
	require.Zero(t, calls.Load())

	resp = b.do(t, request{token: b.env.OwnerKey, header: oldVersion, body: batchOf(mcp.MaxBatchMessages, "count_test")})
	require.Equal(t, http.StatusOK, resp.status, "%s", resp.body)
	var answers []map[string]any
	require.NoError(t, json.Unmarshal(resp.body, &answers))
	require.Len(t, answers, mcp.MaxBatchMessages)
	for _, a := range answers {
		require.NotNil(t, a["result"], "%v", a)
	}
	require.EqualValues(t, mcp.MaxBatchMessages, calls.Load())
}

// TestBatchAnswersAreBounded: once a batch's answers pass
// MaxBatchResponseBytes, the calls that have not run answer
// REQUEST_TOO_LARGE instead of running.
func TestBatchAnswersAreBounded(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	b := setup(t, withTools(countingTools(&calls)))

	resp := b.do(t, request{token: b.env.OwnerKey, header: oldVersion, body: batchOf(mcp.MaxBatchMessages, "big_test")})
	require.Equal(t, http.StatusOK, resp.status)
	// Each answer carries the 1 MiB twice (structuredContent and text): two
	// answers reach the bound, and the calls after them do not run.
	require.Less(t, len(resp.body), 7<<20, "the answers pass the bound by one answer at most, not 20 x 2 MiB")
	var answers []map[string]any
	require.NoError(t, json.Unmarshal(resp.body, &answers))
	require.Len(t, answers, mcp.MaxBatchMessages)
	ran, refused := 0, 0
	for _, a := range answers {
		if a["result"] != nil {
			ran++
			continue
		}
		e := a["error"].(map[string]any)
		require.Equal(t, string(core.CodeRequestTooLarge), e["data"].(map[string]any)["code"], "%v", e)
		refused++
	}
	require.Equal(t, 2, ran)
	require.Positive(t, refused)
	require.EqualValues(t, ran, calls.Load(), "a refused call did not run")
}

// TestBatchCallsCountAgainstTheAssistantLimit: each tools/call of a batch
// is one call to the limiter, and a batch over the limit runs none.
func TestBatchCallsCountAgainstTheAssistantLimit(t *testing.T) {
	t.Parallel()
	var (
		mu   sync.Mutex
		seen []int
	)
	limiter := func(_ context.Context, _ core.Principal, n int) error {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, n)
		if n > 3 {
			return &core.Error{Code: core.CodeRateLimit, Message: "120 tool calls per minute per workspace", RetryAfterMs: 1000}
		}
		return nil
	}
	b := setup(t, withLimiter(limiter))
	list := `{"jsonrpc":"2.0","id":99,"method":"tools/list"}`
	call := batchOf(3, "get_workflow_guide")
	resp := b.do(t, request{path: "/chatgpt/mcp", token: connAll, header: oldVersion, body: call[:len(call)-1] + "," + list + "]"})
	require.Equal(t, http.StatusOK, resp.status, "%s", resp.body)

	resp = b.do(t, request{path: "/chatgpt/mcp", token: connAll, header: oldVersion, body: batchOf(4, "get_workflow_guide")})
	require.Equal(t, http.StatusTooManyRequests, resp.status, "%s", resp.body)
	requireEnvelope(t, resp.json(t), core.CodeRateLimit)
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, []int{3, 4}, seen)
}
