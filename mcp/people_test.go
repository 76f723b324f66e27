package mcp_test

import (
	"context"
	"net/http"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
)

// MCP takes bearer credentials only: a session cookie, or a session token
// sent as a bearer, is 401.
func TestSessionsAreNotAcceptedOnMCP(t *testing.T) {
	t.Parallel()
	b := setup(t)
	token, _ := b.env.SignIn(t, b.env.OwnerEmail)
	for name, req := range map[string]request{
		"cookie": {header: map[string]string{"Cookie": identity.SessionCookieName + "=" + token, "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}, body: toolsList},
		"bearer": {token: token, header: mcpHeaders("tools/list", ""), body: toolsList},
	} {
		resp := b.do(t, req)
		require.Equal(t, http.StatusUnauthorized, resp.status, "%s: %s", name, resp.body)
		requireEnvelope(t, resp.json(t), core.CodeAuthRequired)
	}
}

func TestTeamToolsOverMCP(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	member := b.env.AddPerson(t, core.RoleMember)

	cs := b.connect(t, "/mcp", b.env.OwnerKey, "")
	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	listed := map[string]bool{}
	for _, tool := range list.Tools {
		listed[tool.Name] = true
	}
	for _, name := range []string{"get_workspace_settings", "update_workspace_settings", "list_team_members", "list_team_invitations"} {
		require.True(t, listed[name], name)
	}
	for _, name := range []string{"invite_team_member", "revoke_team_invitation", "update_team_member", "remove_team_member"} {
		require.False(t, listed[name], "%s is signed-in only", name)
	}

	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "invite_team_member", Arguments: map[string]any{"email": "ana@example.com", "role": "member"}})
	require.NoError(t, err)
	env := toolEnvelope(t, res)
	requireEnvelope(t, env, core.CodeHumanApprovalRequired)
	require.Equal(t, b.env.SiteURL+"/team", env["url"])

	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "list_team_members", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	require.Len(t, sameJSON(t, res)["data"], 2)

	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "update_workspace_settings", Arguments: map[string]any{"company": "Acme", "meetingUrl": "https://cal.example.com/acme"}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.StructuredContent)
	require.Equal(t, "Acme", sameJSON(t, res)["data"].(map[string]any)["company"])

	mc := b.connect(t, "/mcp", member.Key, "")
	for _, name := range []string{"list_team_invitations", "update_workspace_settings"} {
		res, err = mc.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: map[string]any{}})
		require.NoError(t, err)
		requireEnvelope(t, toolEnvelope(t, res), core.CodeTeamManagerRequired)
	}

	// A connection with gifts:read sees and reads the settings, nothing of the team.
	conn := b.connect(t, "/mcp", connRead, "")
	res, err = conn.CallTool(ctx, &sdk.CallToolParams{Name: "get_workspace_settings", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.StructuredContent)
	require.Equal(t, "https://cal.example.com/acme", sameJSON(t, res)["data"].(map[string]any)["meetingUrl"])
}
