package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/mcp"
	"github.com/giftwell/giftwell/tools"
)

func TestToolsListPerProfile(t *testing.T) {
	t.Parallel()
	b := setup(t)
	readOnly := core.Principal{Via: core.ViaConnection, Scopes: []core.Scope{core.ScopeRead}}
	visible := func(pr tools.Profile, p core.Principal) (names []string) {
		for _, tl := range b.tools {
			if tl.Visible(pr, p) {
				names = append(names, tl.Name)
			}
		}
		return names
	}
	for _, tc := range []struct {
		name, path, token string
		want              []string
	}{
		{"key full", "/mcp", b.env.OwnerKey, names(tools.ForProfile(b.tools, tools.ProfileFull))},
		{"key gifting", "/mcp?profile=gifting", b.env.OwnerKey, names(tools.ForProfile(b.tools, tools.ProfileGifting))},
		{"connection gifting", "/mcp", connAll, names(tools.ForProfile(b.tools, tools.ProfileGifting))},
		{"connection read only", "/mcp", connRead, visible(tools.ProfileGifting, readOnly)},
		{"chatgpt", "/chatgpt/mcp", connAll, names(tools.ForProfile(b.tools, tools.ProfileChatGPT))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			require.NotEmpty(t, tc.want)
			cs := b.connect(t, tc.path, tc.token, "")
			res, err := cs.ListTools(context.Background(), nil)
			require.NoError(t, err)
			var got []string
			for _, tl := range res.Tools {
				got = append(got, tl.Name)
				require.NotNil(t, tl.Annotations, "tool %s has no annotations", tl.Name)
				require.NotEmpty(t, tl.Annotations.Title, "tool %s has no title", tl.Name)
				if !tl.Annotations.ReadOnlyHint {
					require.NotNil(t, tl.Annotations.DestructiveHint, "tool %s", tl.Name)
				}
				require.NotNil(t, tl.Annotations.OpenWorldHint, "tool %s", tl.Name)
				require.NotEmpty(t, tl.Description, "tool %s", tl.Name)
				require.Nil(t, tl.OutputSchema, "tool %s: MCP lists no output schema (the tool list budget)", tl.Name)
			}
			require.Equal(t, tc.want, got)
		})
	}
}

func TestToolsListTodayHasTheFourCatalogTools(t *testing.T) {
	t.Parallel()
	b := setup(t)
	cs := b.connect(t, "/mcp", b.env.OwnerKey, "")
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	got := map[string]*sdk.Tool{}
	for _, tl := range res.Tools {
		got[tl.Name] = tl
	}
	for _, name := range []string{"get_workflow_guide", "search_gifts", "get_gift", "browse_gifts"} {
		require.Contains(t, got, name)
		require.True(t, got[name].Annotations.ReadOnlyHint, name)
		require.Nil(t, got[name].Annotations.DestructiveHint, "%s: read-only, so no destructive hint", name)
	}
}

func TestSearchGiftsEveryProtocolVersion(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, version := range mcp.SupportedVersions() {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			cs := b.connect(t, "/mcp", b.env.OwnerKey, version)
			require.Equal(t, version, cs.InitializeResult().ProtocolVersion)
			require.Equal(t, "giftwell", cs.InitializeResult().ServerInfo.Name)

			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{
				Name:      "search_gifts",
				Arguments: map[string]any{"query": "coffee", "budgetCents": 20000, "recipientCount": 3},
			})
			require.NoError(t, err)
			require.False(t, res.IsError, "result: %v", res.StructuredContent)
			out := sameJSON(t, res)
			require.Len(t, out, 1, "structuredContent is {data} only")
			data, ok := out["data"].(map[string]any)
			require.True(t, ok, "data: %v", out["data"])
			require.EqualValues(t, 3, data["recipientCount"])
			require.EqualValues(t, 20000, data["budgetCents"])
			require.Contains(t, data, "nextStep")
			items, ok := data["items"].([]any)
			require.True(t, ok)
			require.NotEmpty(t, items)
			for _, it := range items {
				item := it.(map[string]any)
				require.LessOrEqual(t, item["estimatedTotalCents"].(float64), 20000.0)
				require.Equal(t, 3*item["estimatedTotalCents"].(float64), item["campaignEstimateCents"])
			}
		})
	}
}

func TestBrowseGiftsLimitZeroIsValidationError(t *testing.T) {
	t.Parallel()
	b := setup(t)
	cs := b.connect(t, "/mcp", b.env.OwnerKey, "2025-06-18")
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "browse_gifts", Arguments: map[string]any{"limit": 0}})
	require.NoError(t, err)
	env := toolEnvelope(t, res)
	requireEnvelope(t, env, core.CodeValidation)
	require.Contains(t, env["error"], "limit")
	require.NotContains(t, env, "url")
}

func TestUnknownArgumentIsNamed(t *testing.T) {
	t.Parallel()
	b := setup(t)
	cs := b.connect(t, "/mcp", b.env.OwnerKey, "")
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{
		Name: "browse_gifts", Arguments: map[string]any{"detail": "full", "colour": "red"},
	})
	require.NoError(t, err)
	env := toolEnvelope(t, res)
	requireEnvelope(t, env, core.CodeValidation)
	require.Contains(t, env["error"], "colour")
}

func TestUnknownToolIsInvalidParams(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, version := range []string{"2026-07-28", "2025-06-18"} {
		cs := b.connect(t, "/mcp", b.env.OwnerKey, version)
		_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "make_coffee"})
		var werr *jsonrpc.Error
		require.ErrorAs(t, err, &werr, version)
		require.EqualValues(t, jsonrpc.CodeInvalidParams, werr.Code, version)
	}
}

func TestDemoWorkspaceKeyIsDemoLimited(t *testing.T) {
	t.Parallel()
	b := setup(t)
	demo := apptest.NewWorkspace(t, b.env.App, apptest.WorkspaceOptions{Demo: true})
	// Authentication succeeds (the key is valid); core.Authorize refuses
	// every tool for a demo workspace's key, so the refusal is a tool result.
	cs := b.connect(t, "/mcp", demo.OwnerKey, "")
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "search_gifts", Arguments: map[string]any{}})
	require.NoError(t, err)
	requireEnvelope(t, toolEnvelope(t, res), core.CodeDemoLimited)
}

// testTools are tools the registry will have in later issues, defined here
// so that the face's handling of their scopes can be tested today.
func testTools(app *giftwell.App) []tools.Tool {
	return []tools.Tool{
		tools.Define("approve_gift_test", "Approve a waiting gift (test stand-in for a signed-in tool).",
			tools.ScopeSignedIn, core.ActApprove,
			func(context.Context, core.Principal, struct {
				CampaignID string `json:"campaignId"`
			}) (struct{}, error) {
				return struct{}{}, nil
			},
			tools.Title("Approve a gift"), tools.Idempotent(),
			tools.PersonURL(func(args json.RawMessage) string {
				var in struct {
					CampaignID string `json:"campaignId"`
				}
				_ = json.Unmarshal(args, &in)
				return app.Config.SiteURL + "/?queue=" + in.CampaignID
			})),
		tools.Define("create_draft_test", "Create a draft (test stand-in for a write tool).",
			tools.ScopeWrite, core.ActEditDrafts,
			func(context.Context, core.Principal, struct{}) (map[string]string, error) {
				return map[string]string{"status": "draft"}, nil
			},
			tools.Title("Create a draft"), tools.ChatGPT()),
		tools.Define("explode_test", "Fail with an unexpected error (test stand-in).",
			tools.ScopeRead, core.ActRead,
			func(context.Context, core.Principal, struct{}) (struct{}, error) {
				return struct{}{}, errors.New("pq: connection to 10.0.0.7 refused, password=hunter2")
			},
			tools.Title("Explode"), tools.ReadOnly()),
		tools.Define("panic_test", "Panic (test stand-in).",
			tools.ScopeRead, core.ActRead,
			func(context.Context, core.Principal, struct{}) (struct{}, error) {
				panic("boom")
			},
			tools.Title("Panic"), tools.ReadOnly()),
	}
}

func TestSignedInToolIsCallableButNeverListedForKeys(t *testing.T) {
	t.Parallel()
	b := setup(t, withTools(testTools))
	for _, path := range []string{"/mcp", "/mcp?profile=gifting"} {
		cs := b.connect(t, path, b.env.OwnerKey, "")
		list, err := cs.ListTools(context.Background(), nil)
		require.NoError(t, err)
		require.False(t, slices.ContainsFunc(list.Tools, func(tl *sdk.Tool) bool { return tl.Name == "approve_gift_test" }), path)

		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{
			Name: "approve_gift_test", Arguments: map[string]any{"campaignId": "cmp_123"},
		})
		require.NoError(t, err, path)
		env := toolEnvelope(t, res)
		requireEnvelope(t, env, core.CodeHumanApprovalRequired)
		require.Equal(t, b.env.SiteURL+"/?queue=cmp_123", env["url"])
	}
}

func TestSignedInToolIsUnknownToConnections(t *testing.T) {
	t.Parallel()
	b := setup(t, withTools(testTools))
	cs := b.connect(t, "/mcp", connAll, "")
	_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "approve_gift_test", Arguments: map[string]any{"campaignId": "cmp_1"}})
	var werr *jsonrpc.Error
	require.ErrorAs(t, err, &werr)
	require.EqualValues(t, jsonrpc.CodeInvalidParams, werr.Code)
}

func TestConnectionOutsideItsScopesGets403(t *testing.T) {
	t.Parallel()
	b := setup(t, withTools(testTools))
	for _, path := range []string{"/mcp", "/chatgpt/mcp"} {
		resp := b.do(t, request{path: path, token: connRead, header: mcpHeaders("tools/call", "create_draft_test"),
			body: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_draft_test","arguments":{},` + newMeta + `}}`})
		require.Equal(t, http.StatusForbidden, resp.status, "%s: %s", path, resp.body)
		require.Equal(t, `Bearer error="insufficient_scope", scope="gifts:write", resource_metadata="`+
			b.env.SiteURL+"/.well-known/oauth-protected-resource"+strings.Split(path, "?")[0]+`"`,
			resp.header.Get("WWW-Authenticate"))
		requireEnvelope(t, resp.json(t), core.CodeInsufficientScope)
	}
	// With the scope, the same call runs.
	cs := b.connect(t, "/mcp", connAll, "")
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "create_draft_test", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.Equal(t, map[string]any{"data": map[string]any{"status": "draft"}}, sameJSON(t, res))
}

func TestInternalErrorsAreGenericAndLogged(t *testing.T) {
	t.Parallel()
	b := setup(t, withTools(testTools))
	cs := b.connect(t, "/mcp", b.env.OwnerKey, "")
	for _, name := range []string{"explode_test", "panic_test"} {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: map[string]any{}})
		require.NoError(t, err)
		env := toolEnvelope(t, res)
		requireEnvelope(t, env, core.CodeInternal)
		require.Equal(t, "an unexpected error occurred", env["error"])
	}
	logs := b.log.String()
	require.Contains(t, logs, "hunter2", "the cause is logged")
	require.Contains(t, logs, "boom")
}
