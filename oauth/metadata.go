// Package oauth is the OAuth 2.1 face of Giftwell: the protected-resource
// metadata that MCP clients discover from a 401, and (in a later issue) the
// authorization server for sign-in connections.
package oauth

import (
	"encoding/json"
	"net/http"

	"github.com/giftwell/giftwell/core"
)

// WellKnownPrefix is the path under which RFC 9728 places a resource's
// metadata document: the resource's own path is appended to it, so the
// document for {site}/mcp is {site}/.well-known/oauth-protected-resource/mcp.
const WellKnownPrefix = "/.well-known/oauth-protected-resource"

// ProtectedResource is the RFC 9728 protected-resource metadata document.
type ProtectedResource struct {
	// Resource is the resource identifier: {site}{resourcePath}.
	Resource string `json:"resource"`
	// AuthorizationServers lists the issuers that grant tokens for the resource.
	AuthorizationServers []string `json:"authorization_servers"`
	// ScopesSupported lists the OAuth scopes a connection can be granted.
	ScopesSupported []string `json:"scopes_supported"`
	// BearerMethodsSupported says how the token is sent: only the Authorization header.
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
	// ResourceName is the human name of the resource.
	ResourceName string `json:"resource_name"`
}

// NewProtectedResource builds the metadata document of the resource at
// resourcePath (e.g. "/mcp" or "/chatgpt/mcp") on the site of cfg.
func NewProtectedResource(cfg core.Config, resourcePath string) ProtectedResource {
	return ProtectedResource{
		Resource:               cfg.SiteURL + resourcePath,
		AuthorizationServers:   []string{cfg.SiteURL},
		ScopesSupported:        scopeStrings(),
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "Giftwell",
	}
}

// ProtectedResourceHandler serves the RFC 9728 document of the resource at
// resourcePath. Mount it at WellKnownPrefix+resourcePath:
//
//	mux.Handle("GET /.well-known/oauth-protected-resource/mcp",
//		oauth.ProtectedResourceHandler(app.Config, "/mcp"))
//
// The document is public and built once; GET and HEAD are answered, any
// other method gets 405.
func ProtectedResourceHandler(cfg core.Config, resourcePath string) http.Handler {
	return staticJSON(NewProtectedResource(cfg, resourcePath))
}

// writeError writes the spec's error envelope with the code's status.
func writeError(w http.ResponseWriter, e *core.Error) {
	info := e.Code.Info()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(info.Status)
	_ = json.NewEncoder(w).Encode(struct {
		Error      string          `json:"error"`
		Code       string          `json:"code"`
		NextAction core.NextAction `json:"nextAction"`
		Retryable  bool            `json:"retryable"`
	}{e.Message, e.Code.Wire(), info.NextAction, info.Retryable})
}
