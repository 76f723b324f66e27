package connect_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/connect"
)

func TestAuthorizeMCPEndpoint(t *testing.T) {
	t.Parallel()
	cfg := core.Config{SiteURL: "https://gifts.example.com"}
	mcp, chat := cfg.MCPURL(), cfg.ChatGPTMCPURL()
	key := core.Principal{WorkspaceID: "ws_1", UserID: "usr_1", Via: core.ViaKey}
	conn := func(resource string, scopes ...core.Scope) core.Principal {
		return core.Principal{WorkspaceID: "ws_1", UserID: "usr_1", Via: core.ViaConnection, Resource: resource, Scopes: scopes}
	}
	for _, tc := range []struct {
		name     string
		p        core.Principal
		resource string
		code     core.Code
		missing  core.Scope
		message  string
	}{
		{name: "key on /mcp", p: key, resource: mcp},
		{name: "connection for /mcp on /mcp", p: conn(mcp, core.ScopeWrite), resource: mcp},
		{name: "connection for the assistant on it", p: conn(chat, core.ScopeRead), resource: chat},
		{name: "connection of an older grant without a resource", p: conn("", core.ScopeRead), resource: chat},
		{name: "connection for /mcp on the assistant", p: conn(mcp, core.ScopeRead), resource: chat, code: core.CodeAuthRequired,
			message: "this access token was issued for another resource (" + mcp + "); connect to this endpoint"},
		{name: "connection for the assistant on /mcp", p: conn(chat, core.ScopeRead), resource: mcp, code: core.CodeAuthRequired,
			message: "this access token was issued for another resource (" + chat + "); connect to this endpoint"},
		{name: "key on the assistant", p: key, resource: chat, code: core.CodeAuthRequired,
			message: "workspace keys do not work on the assistant endpoint; connect with sign-in (OAuth) instead"},
		{name: "connection without gifts:read on the assistant", p: conn(chat, core.ScopeWrite), resource: chat,
			code: core.CodeInsufficientScope, missing: core.ScopeRead,
			message: "this connection lacks the gifts:read scope; reconnect and grant it"},
	} {
		missing, err := connect.AuthorizeMCPEndpoint(cfg, tc.p, tc.resource)
		require.Equal(t, tc.missing, missing, tc.name)
		if tc.code == "" {
			require.NoError(t, err, tc.name)
			continue
		}
		e := core.AsError(err)
		require.Equal(t, tc.code, e.Code, tc.name)
		require.Equal(t, tc.message, e.Message, tc.name)
		if tc.code == core.CodeAuthRequired {
			require.Equal(t, cfg.SignInURL(), e.URL, tc.name)
		}
	}
}
