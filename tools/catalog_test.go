package tools_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/tools"
)

// call runs a registry tool as the Env's owner key and returns its result as JSON.
func callCatalogTool(t *testing.T, env *apptest.Env, name, args string) (map[string]any, error) {
	t.Helper()
	ctx := context.Background()
	p, err := env.App.Connect.Authenticate(ctx, env.OwnerKey)
	require.NoError(t, err)
	tool, ok := tools.ByName(tools.All(env.App))[name]
	require.True(t, ok, name)
	out, err := tool.Call(ctx, p, json.RawMessage(args))
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(out)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m, nil
}

func TestCatalogTools(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)

	guide, err := callCatalogTool(t, env, "get_workflow_guide", `{}`)
	require.NoError(t, err)
	require.Equal(t, "test", guide["mode"])
	require.Equal(t, false, guide["connectorCanSend"])

	res, err := callCatalogTool(t, env, "search_gifts", `{"query":"engraved","budgetCents":8000,"recipientCount":3,"limit":2,"excludeAlcohol":true}`)
	require.NoError(t, err)
	require.EqualValues(t, 8000, res["budgetCents"])
	require.EqualValues(t, 3, res["recipientCount"])
	items := res["items"].([]any)
	require.Len(t, items, 2)
	first := items[0].(map[string]any)
	require.EqualValues(t, 3*first["estimatedTotalCents"].(float64), first["campaignEstimateCents"])
	require.LessOrEqual(t, first["estimatedTotalCents"].(float64), 8000.0)
	require.Equal(t, "create_campaign", res["nextStep"].(map[string]any)["tool"])

	// Omitted numbers take their defaults; explicit zeros are refused by the schema.
	res, err = callCatalogTool(t, env, "search_gifts", `{}`)
	require.NoError(t, err)
	require.Nil(t, res["budgetCents"])
	require.EqualValues(t, 1, res["recipientCount"])
	require.Len(t, res["items"], 10)
	for args, field := range map[string]string{
		`{"limit":0}`:               "limit",
		`{"budgetCents":0}`:         "budgetCents",
		`{"recipientCount":2001}`:   "recipientCount",
		`{"excludeGlitter":true}`:   "excludeGlitter",
		`{"query":7}`:               "query",
		`{"budgetCents":"5000"}`:    "budgetCents",
		`{"limit":101}`:             "limit",
		`{"budgetCents":100000001}`: "budgetCents",
	} {
		_, err := callCatalogTool(t, env, "search_gifts", args)
		e := core.AsError(err)
		require.Equal(t, core.CodeValidation, e.Code, args)
		require.Contains(t, e.Fields, field, args)
	}

	gift, err := callCatalogTool(t, env, "get_gift", `{"productId":"custom-portrait-illustration"}`)
	require.NoError(t, err)
	require.Equal(t, true, gift["requiresPortrait"])
	_, err = callCatalogTool(t, env, "get_gift", `{"productId":"made-up"}`)
	require.Equal(t, core.CodeNotFound, core.ErrorCode(err))
	_, err = callCatalogTool(t, env, "get_gift", `{}`)
	require.Equal(t, core.CodeValidation, core.ErrorCode(err))

	page, err := callCatalogTool(t, env, "browse_gifts", `{"limit":5,"detail":"full"}`)
	require.NoError(t, err)
	require.Len(t, page["items"], 5)
	require.Contains(t, page["items"].([]any)[0], "description")
	next, err := callCatalogTool(t, env, "browse_gifts", `{"limit":5,"cursor":"`+page["nextCursor"].(string)+`"}`)
	require.NoError(t, err)
	require.NotEqual(t, page["items"].([]any)[0].(map[string]any)["id"], next["items"].([]any)[0].(map[string]any)["id"])
	require.NotContains(t, next["items"].([]any)[0], "description")
	_, err = callCatalogTool(t, env, "browse_gifts", `{"detail":"everything"}`)
	require.Equal(t, core.CodeValidation, core.ErrorCode(err))
	_, err = callCatalogTool(t, env, "browse_gifts", `{"cursor":"bm9wZQ"}`)
	e := core.AsError(err)
	require.Equal(t, core.CodeValidation, e.Code)
	require.Equal(t, []string{"cursor"}, e.Fields)
}

func TestCatalogToolDescriptors(t *testing.T) {
	t.Parallel()
	byName := tools.ByName(tools.All(nil))
	routes := map[string]string{
		"get_workflow_guide": "GET /workflow",
		"search_gifts":       "GET /catalog/search",
		"get_gift":           "GET /catalog/{productId}",
		"browse_gifts":       "",
	}
	for name, route := range routes {
		tool := byName[name]
		require.Equal(t, tools.ScopeRead, tool.Scope, name)
		require.Equal(t, core.ActRead, tool.Action, name)
		require.True(t, tool.ChatGPT, name)
		require.True(t, tool.Hints.ReadOnly, name)
		require.False(t, tool.Hints.Destructive, name)
		if route == "" {
			require.Nil(t, tool.Route, name)
			continue
		}
		require.NotNil(t, tool.Route, name)
		require.Equal(t, route, tool.Route.Method+" "+tool.Route.Path)
		require.Equal(t, 200, tool.Route.Status)
	}
	for _, name := range []string{"search_gifts", "get_gift", "browse_gifts"} {
		require.Contains(t, byName[name].Description, "Never invent a product ID", name)
	}
}
