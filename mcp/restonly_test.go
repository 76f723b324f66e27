package mcp_test

import (
	"context"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/tools"
)

// TestRESTOnlyToolsAreNotOnMCP: the registry's REST-only operations (the
// public catalog, the session, the CSV export, the auto-approve rule, ...)
// have no MCP profile: no list shows them and calling one names an unknown
// tool, for keys (even a signed-in-only one, which keys could otherwise
// call to learn the url) and for connections alike.
func TestRESTOnlyToolsAreNotOnMCP(t *testing.T) {
	t.Parallel()
	b := setup(t)
	var restOnly []string
	for _, tl := range b.tools {
		if tl.RESTOnly {
			restOnly = append(restOnly, tl.Name)
		}
	}
	require.Contains(t, restOnly, "get_catalog")
	require.Contains(t, restOnly, "set_auto_approve")
	for _, tc := range []struct{ path, token string }{
		{"/mcp", b.env.OwnerKey},
		{"/mcp?profile=gifting", b.env.OwnerKey},
		{"/mcp", connAll},
		{"/chatgpt/mcp", connAll},
	} {
		cs := b.connect(t, tc.path, tc.token, "")
		list, err := cs.ListTools(context.Background(), nil)
		require.NoError(t, err)
		for _, tl := range list.Tools {
			require.NotContains(t, restOnly, tl.Name, tc.path)
		}
		require.NotEmpty(t, list.Tools, tc.path)
		for _, name := range restOnly {
			_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: map[string]any{}})
			var werr *jsonrpc.Error
			require.ErrorAs(t, err, &werr, "%s %s", tc.path, name)
			require.EqualValues(t, jsonrpc.CodeInvalidParams, werr.Code, "%s %s", tc.path, name)
		}
	}
	require.Empty(t, names(tools.ForProfile(restOnlyTools(b.tools), tools.ProfileFull)))
}

func restOnlyTools(list []tools.Tool) []tools.Tool {
	return slices.DeleteFunc(slices.Clone(list), func(t tools.Tool) bool { return !t.RESTOnly })
}
