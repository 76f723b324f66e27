package mcp

import (
	"net/url"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// mount is one of the two MCP endpoints.
type mount struct {
	// path is the endpoint's path and its RFC 9728 resource path.
	path string
	// chatgpt marks the assistant endpoint: connections only, its own tools.
	chatgpt bool
}

// The endpoints.
var (
	mountMCP     = mount{path: "/mcp"}
	mountChatGPT = mount{path: "/chatgpt/mcp", chatgpt: true}
)

// mountFor returns the endpoint served at path.
func mountFor(path string) (mount, bool) {
	switch path {
	case mountMCP.path:
		return mountMCP, true
	case mountChatGPT.path:
		return mountChatGPT, true
	}
	return mount{}, false
}

// resourceMetadataURL is where the endpoint's RFC 9728 document is served:
// {site}/.well-known/oauth-protected-resource{path}.
func (m mount) resourceMetadataURL(siteURL string) string {
	return siteURL + "/.well-known/oauth-protected-resource" + m.path
}

// profile is the tool profile a request to the endpoint sees. At /mcp a key
// sees the full profile unless ?profile=gifting asks for the gifting one; a
// connection always sees the gifting profile (narrowed later by its scopes).
// Any other profile value is a VALIDATION_ERROR naming profile.
func (m mount) profile(q url.Values, p core.Principal) (tools.Profile, error) {
	if m.chatgpt {
		return tools.ProfileChatGPT, nil
	}
	switch v := q.Get("profile"); strings.ToLower(v) {
	case "":
		if p.Via == core.ViaConnection {
			return tools.ProfileGifting, nil
		}
		return tools.ProfileFull, nil
	case string(tools.ProfileGifting):
		return tools.ProfileGifting, nil
	default:
		return "", core.Invalid("profile", "must be gifting or absent, not %q", v)
	}
}
