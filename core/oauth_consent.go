package core

import (
	"slices"
)

// The rules of what a sign-in connection may ask for and be granted: the
// authorization request before the consent page, the scopes the page
// offers, and the token request against its grant. The oauth face applies
// them and renders their refusals as OAuth errors: a VALIDATION_ERROR naming
// resource is RFC 8707's invalid_target, one naming scope is invalid_scope
// (access_denied at consent).

// OAuthConsentScope is a scope the consent page offers.
type OAuthConsentScope struct {
	Scope Scope
	// Optional scopes can be unticked; gifts:read is always granted when asked for.
	Optional bool
}

// OAuthConsentScopes are the scopes the consent page offers for the
// requested ones, in AllScopes order; requested scopes Giftwell does not
// know are left out.
func OAuthConsentScopes(requested []string) []OAuthConsentScope {
	var out []OAuthConsentScope
	for _, s := range AllScopes {
		if slices.Contains(requested, string(s)) {
			out = append(out, OAuthConsentScope{Scope: s, Optional: s != ScopeRead})
		}
	}
	return out
}

// CheckOAuthAuthorization checks what an authorization request asks for,
// before the consent page: exactly one resource, {mcp_url} or
// {chatgpt_mcp_url}; at least one scope; and gifts:read on the assistant
// endpoint. resources are the request's resource parameters. It returns
// VALIDATION_ERROR naming resource or scope.
func CheckOAuthAuthorization(c Config, resources, scopes []string) error {
	if len(resources) != 1 || !slices.Contains(c.OAuthResources(), resources[0]) {
		return Invalid("resource", "must be %s or %s", c.MCPURL(), c.ChatGPTMCPURL())
	}
	if resources[0] == c.ChatGPTMCPURL() && !slices.Contains(scopes, string(ScopeRead)) {
		return Invalid("scope", "the assistant endpoint needs %s", ScopeRead)
	}
	if len(scopes) == 0 {
		return Invalid("scope", "request at least one scope")
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
		return Invalid("resource", "must be the resource the app was connected to, %s", g.Resource)
	}
	for _, s := range scopes {
		if !slices.Contains(g.Scopes, Scope(s)) {
			return Invalid("scope", "the scope %q was not granted", s)
		}
	}
	return nil
}

// grantedScopes are the scopes a consent grants: of the requested ones, the
// required ones and the optional ones the person left ticked. It returns
// VALIDATION_ERROR naming scope when nothing is granted.
func grantedScopes(requested, ticked []string) ([]Scope, error) {
	var out []Scope
	for _, s := range OAuthConsentScopes(requested) {
		if !s.Optional || slices.Contains(ticked, string(s.Scope)) {
			out = append(out, s.Scope)
		}
	}
	if len(out) == 0 {
		return nil, Invalid("scope", "no scope was granted")
	}
	return out, nil
}
