package connect

import (
	"slices"

	"github.com/giftwell/giftwell/core"
)

// The rules of what a sign-in connection may ask for and be granted: the
// authorization request before the consent page, the scopes the page
// offers, and the token request against its grant. The oauth face applies
// them and renders their refusals as OAuth errors: a VALIDATION_ERROR naming
// resource is RFC 8707's invalid_target, one naming scope is invalid_scope
// (access_denied at consent).

// OAuthConsentScope is a scope the consent page offers.
type OAuthConsentScope struct {
	Scope core.Scope
	// Optional scopes can be unticked; gifts:read is always granted when asked for.
	Optional bool
}

// OAuthConsentScopes are the scopes the consent page offers for the
// requested ones, in AllScopes order; requested scopes Giftwell does not
// know are left out.
func OAuthConsentScopes(requested []string) []OAuthConsentScope {
	var out []OAuthConsentScope
	for _, s := range core.AllScopes {
		if slices.Contains(requested, string(s)) {
			out = append(out, OAuthConsentScope{Scope: s, Optional: s != core.ScopeRead})
		}
	}
	return out
}

// CheckOAuthAuthorization checks what an authorization request asks for,
// before the consent page: exactly one resource, {mcp_url} or
// {chatgpt_mcp_url}; at least one scope; and gifts:read on the assistant
// endpoint. resources are the request's resource parameters. It returns
// VALIDATION_ERROR naming resource or scope.
func CheckOAuthAuthorization(c core.Config, resources, scopes []string) error {
	if len(resources) != 1 || !slices.Contains(c.OAuthResources(), resources[0]) {
		return core.Invalid("resource", "must be %s or %s", c.MCPURL(), c.ChatGPTMCPURL())
	}
	if resources[0] == c.ChatGPTMCPURL() && !slices.Contains(scopes, string(core.ScopeRead)) {
		return core.Invalid("scope", "the assistant endpoint needs %s", core.ScopeRead)
	}
	if len(scopes) == 0 {
		return core.Invalid("scope", "request at least one scope")
	}
	return nil
}

// CheckTokenRequest checks what a token request (code exchange or
// refresh) asks of the grant: a resource, when sent, must be exactly the
// grant's, and no scope beyond the grant's is ever issued. resources are
// the request's resource parameters and scopes its scope parameter's. It
// returns VALIDATION_ERROR naming resource or scope.
func (g OAuthGrant) CheckTokenRequest(resources, scopes []string) error {
	if len(resources) > 0 && (len(resources) != 1 || resources[0] != g.Resource) {
		return core.Invalid("resource", "must be the resource the app was connected to, %s", g.Resource)
	}
	for _, s := range scopes {
		if !slices.Contains(g.Scopes, core.Scope(s)) {
			return core.Invalid("scope", "the scope %q was not granted", s)
		}
	}
	return nil
}

// grantedScopes are the scopes a consent grants: of the requested ones, the
// required ones and the optional ones the person left ticked. It returns
// VALIDATION_ERROR naming scope when nothing is granted.
func grantedScopes(requested, ticked []string) ([]core.Scope, error) {
	var out []core.Scope
	for _, s := range OAuthConsentScopes(requested) {
		if !s.Optional || slices.Contains(ticked, string(s.Scope)) {
			out = append(out, s.Scope)
		}
	}
	if len(out) == 0 {
		return nil, core.Invalid("scope", "no scope was granted")
	}
	return out, nil
}
