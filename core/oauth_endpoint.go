package core

import "fmt"

// AuthorizeMCPEndpoint decides whether the authenticated p may use the MCP
// endpoint whose resource URL is resource ({mcp_url} or {chatgpt_mcp_url}),
// before any tool runs. A connection works only on the endpoint its grant is
// bound to (RFC 8707); the assistant endpoint takes connections only, and
// only with gifts:read.
//
// It returns AUTH_REQUIRED, or INSUFFICIENT_SCOPE (InsufficientScope) with
// missing set to the scope the connection lacks, which a face names in its
// challenge.
func AuthorizeMCPEndpoint(c Config, p Principal, resource string) (missing Scope, err error) {
	if p.Via == ViaConnection && p.Resource != "" && p.Resource != resource {
		return "", c.AuthRequired("this access token was issued for another resource (" + p.Resource + "); connect to this endpoint")
	}
	if resource != c.ChatGPTMCPURL() {
		return "", nil
	}
	if p.Via != ViaConnection {
		return "", c.AuthRequired("workspace keys do not work on the assistant endpoint; connect with sign-in (OAuth) instead")
	}
	if !p.HasScope(ScopeRead) {
		return ScopeRead, InsufficientScope(ScopeRead)
	}
	return "", nil
}

// InsufficientScope is INSUFFICIENT_SCOPE for a connection that lacks s,
// asking the person to reconnect and grant it.
func InsufficientScope(s Scope) *Error {
	return &Error{Code: CodeInsufficientScope, Message: fmt.Sprintf("this connection lacks the %s scope; reconnect and grant it", s)}
}
