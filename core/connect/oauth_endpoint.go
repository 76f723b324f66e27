package connect

import (
	"fmt"

	"github.com/giftwell/giftwell/core"
)

// AuthorizeMCPEndpoint decides whether the authenticated p may use the MCP
// endpoint whose resource URL is resource ({mcp_url} or {chatgpt_mcp_url}),
// before any tool runs. A connection works only on the endpoint its grant is
// bound to (RFC 8707); the assistant endpoint takes connections only, and
// only with gifts:read.
//
// It returns AUTH_REQUIRED, or INSUFFICIENT_SCOPE (InsufficientScope) with
// missing set to the scope the connection lacks, which a face names in its
// challenge.
func AuthorizeMCPEndpoint(c core.Config, p core.Principal, resource string) (missing core.Scope, err error) {
	if p.Via == core.ViaConnection && p.Resource != "" && p.Resource != resource {
		return "", c.AuthRequired("this access token was issued for another resource (" + p.Resource + "); connect to this endpoint")
	}
	if resource != c.ChatGPTMCPURL() {
		return "", nil
	}
	if p.Via != core.ViaConnection {
		return "", c.AuthRequired("workspace keys do not work on the assistant endpoint; connect with sign-in (OAuth) instead")
	}
	if !p.HasScope(core.ScopeRead) {
		return core.ScopeRead, InsufficientScope(core.ScopeRead)
	}
	return "", nil
}

// InsufficientScope is INSUFFICIENT_SCOPE for a connection that lacks s,
// asking the person to reconnect and grant it.
func InsufficientScope(s core.Scope) *core.Error {
	return &core.Error{Code: core.CodeInsufficientScope, Message: fmt.Sprintf("this connection lacks the %s scope; reconnect and grant it", s)}
}
