package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// listed is one mount's tools/list as it crossed the wire: the result and
// each tool, as compact JSON.
type listed struct {
	result []byte
	tools  map[string][]byte
	order  []string
	ttlMs  float64
	scope  string
}

func (b *bundle) toolsList(t *testing.T, path, token string) listed {
	t.Helper()
	r := b.do(t, request{path: path, token: token, header: mcpHeaders("tools/list", ""), body: toolsList})
	require.Equal(t, 200, r.status, "body: %s", r.body)
	var m struct{ Result json.RawMessage }
	require.NoError(t, json.Unmarshal(r.body, &m), "body: %s", r.body)
	var res struct {
		Tools      []json.RawMessage
		TTLMs      float64 `json:"ttlMs"`
		CacheScope string  `json:"cacheScope"`
	}
	require.NoError(t, json.Unmarshal(m.Result, &res))
	l := listed{result: compact(t, m.Result), tools: map[string][]byte{}, ttlMs: res.TTLMs, scope: res.CacheScope}
	for _, raw := range res.Tools {
		var tl struct{ Name string }
		require.NoError(t, json.Unmarshal(raw, &tl))
		l.tools[tl.Name] = compact(t, raw)
		l.order = append(l.order, tl.Name)
	}
	return l
}

func compact(t *testing.T, raw []byte) []byte {
	t.Helper()
	var c bytes.Buffer
	require.NoError(t, json.Compact(&c, raw))
	return c.Bytes()
}

// TestToolListBudget holds every mount's tools/list to the budget
// (tools.MaxTokensPerTool on average, tools.MaxToolTokens for any one
// tool, counted as bytes/4 of the compact JSON result) and checks that
// each tool costs on the wire what docs/tools.md prints (tools.CostOf).
func TestToolListBudget(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, tc := range []struct {
		name, path, token string
		profile           tools.Profile
	}{
		{"key full", "/mcp", b.env.OwnerKey, tools.ProfileFull},
		{"key gifting", "/mcp?profile=gifting", b.env.OwnerKey, tools.ProfileGifting},
		{"connection gifting", "/mcp", connAll, tools.ProfileGifting},
		{"connection read only", "/mcp", connRead, tools.ProfileGifting},
		{"chatgpt", "/chatgpt/mcp", connAll, tools.ProfileChatGPT},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := b.toolsList(t, tc.path, tc.token)
			require.NotEmpty(t, l.order)
			byName := tools.ByName(b.tools)
			largest, largestBytes := "", 0
			for _, name := range l.order {
				n := len(l.tools[name])
				require.Equal(t, byName[name].ListedBytes(), n, "%s: the wire and tools.Listing differ", name)
				if n > largestBytes {
					largest, largestBytes = name, n
				}
			}
			perTool := len(l.result) / 4 / len(l.order)
			t.Logf("%s: %d tools, %d bytes, %d tokens per tool (bytes/4); largest %s, %d tokens",
				tc.name, len(l.order), len(l.result), perTool, largest, largestBytes/4)
			require.LessOrEqual(t, perTool, tools.MaxTokensPerTool, "%s: tools/list over budget", tc.name)
			require.LessOrEqual(t, largestBytes/4, tools.MaxToolTokens, "%s: %s over budget", tc.name, largest)
			if tc.name != "connection read only" {
				cost := tools.CostOf(b.tools, tc.profile)
				require.Equal(t, cost.Tools, len(l.order))
				require.Equal(t, cost.LargestBytes, largestBytes)
			}
			require.Equal(t, float64(3_600_000), l.ttlMs, "lists are cacheable for an hour")
			require.Equal(t, "private", l.scope)
		})
	}
}

// TestRegistryWithinBudget holds the whole registry, as docs/tools.md
// measures it, to the budget on every profile: a tool added anywhere must
// fit.
func TestRegistryWithinBudget(t *testing.T) {
	t.Parallel()
	list := tools.All(nil)
	for _, pr := range tools.Profiles {
		c := tools.CostOf(list, pr)
		require.LessOrEqual(t, c.TokensPerTool(), tools.MaxTokensPerTool, "profile %s", pr)
		require.LessOrEqual(t, c.LargestTokens(), tools.MaxToolTokens, "profile %s: %s", pr, c.Largest)
	}
}

// TestResultsAreDataOrTheEnvelope: with no output schema listed, what the
// server's instructions promise still holds: a success's structuredContent
// is {data}, a failure's the error envelope.
func TestResultsAreDataOrTheEnvelope(t *testing.T) {
	t.Parallel()
	b := setup(t)
	cs := b.connect(t, "/mcp", b.env.OwnerKey, "")
	for _, call := range []struct {
		name    string
		args    map[string]any
		isError bool
	}{
		{"search_gifts", map[string]any{"query": "mug"}, false},
		{"list_campaigns", map[string]any{}, false},
		{"get_workflow_guide", map[string]any{}, false},
		{"get_campaign", map[string]any{"id": "cmp_nope"}, true},
		{"browse_gifts", map[string]any{"limit": 0}, true},
	} {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: call.name, Arguments: call.args})
		require.NoError(t, err, call.name)
		require.Equal(t, call.isError, res.IsError, "%s: %v", call.name, res.StructuredContent)
		structured := sameJSON(t, res)
		if call.isError {
			require.NotContains(t, structured, "data", call.name)
			requireEnvelope(t, structured, core.Code(structured["code"].(string)))
			continue
		}
		require.Len(t, structured, 1, "%s: %v", call.name, structured)
		require.Contains(t, structured, "data", call.name)
	}
}
