package mcp

import (
	"context"
	"net/http"
	"runtime/debug"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// instructions is what every server tells a client on initialize and
// server/discover.
const instructions = "Giftwell prepares, approves, pays for and ships personalized physical gifts to people in " +
	"the United States. Agents prepare and track; signed-in people approve, pay and top up. Start with " +
	"get_workflow_guide (or the giftwell://guide resource), choose gifts only with search_gifts, browse_gifts or " +
	"get_gift, hand every url an error or result gives to a person, and follow each error's nextAction. A result's structuredContent is " +
	"{data}; a failure's is the error envelope {error, code, nextAction, retryable, url?, retryAfterMs?}. An unknown argument is refused by name."

// implementation is the server's identity, with the module version when
// the binary carries one.
func implementation() *sdk.Implementation {
	v := "dev"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	return &sdk.Implementation{Name: "giftwell", Title: "Giftwell", Version: v}
}

// served is one cached server: the SDK's, and the handlers of the tools it
// lets be called (listed or not), which fastCall calls directly.
type served struct {
	sdk   *sdk.Server
	tools map[string]sdk.ToolHandler
}

// buildServer builds the server for one serverKey: the tools the principal
// may call in the profile, every prompt and every resource. Capabilities
// advertise no list-change notifications (nothing changes within a
// stateless request) and no logging.
func (h *handler) buildServer(pr tools.Profile, p core.Principal) *served {
	s := sdk.NewServer(h.impl, &sdk.ServerOptions{
		Instructions: instructions,
		Logger:       sdkLogger(h.log),
		Capabilities: &sdk.ServerCapabilities{
			Tools:     &sdk.ToolCapabilities{},
			Prompts:   &sdk.PromptCapabilities{},
			Resources: &sdk.ResourceCapabilities{},
		},
		SupportedProtocolVersions: supportedVersions,
		SetCacheable:              privateCache,
	})
	s.AddReceivingMiddleware(h.boundBatchAnswers)
	calls := h.addTools(s, pr, p)
	h.addPrompts(s)
	h.addResources(s)
	return &served{sdk: s, tools: calls}
}

// listTTL is how long a client may keep a list (tools, prompts, resources,
// resource templates) before asking again: a list changes only with a new
// release of the server or a connection's new grant, and never within a
// session, so an hour spares every turn a fresh tools/list.
const listTTL = time.Hour

// privateCache marks every cacheable result private, since what a caller
// sees depends on its credential and the SDK's default scope is public.
// Lists stay fresh for listTTL; server/discover and resources/read (whose
// content follows the catalog and the account) are immediately stale.
func privateCache(_ context.Context, req sdk.Request, c *sdk.Cacheable) {
	c.TTLMs = 0
	switch req.(type) {
	case *sdk.ListToolsRequest, *sdk.ListPromptsRequest, *sdk.ListResourcesRequest, *sdk.ListResourceTemplatesRequest:
		c.TTLMs = int(listTTL / time.Millisecond)
	}
	c.CacheScope = "private"
}

// serverKey identifies one cached server: what it lists and what it lets
// be called depend only on these.
type serverKey struct {
	profile    tools.Profile
	connection bool
	scopes     uint8 // bit i set: core.AllScopes[i] granted (connections only)
}

func keyFor(pr tools.Profile, p core.Principal) serverKey {
	k := serverKey{profile: pr, connection: p.Via == core.ViaConnection}
	if k.connection {
		for i, s := range core.AllScopes {
			if p.HasScope(s) {
				k.scopes |= 1 << i
			}
		}
	}
	return k
}

// server returns the cached server for the profile and principal, building
// it on first use. Servers are immutable once built.
func (h *handler) server(pr tools.Profile, p core.Principal) *served {
	k := keyFor(pr, p)
	if s, ok := h.servers.Load(k); ok {
		return s.(*served)
	}
	s, _ := h.servers.LoadOrStore(k, h.buildServer(pr, p))
	return s.(*served)
}

type serverContextKey struct{}

func withServer(ctx context.Context, s *sdk.Server) context.Context {
	return context.WithValue(ctx, serverContextKey{}, s)
}

// serverFromContext is the SDK's getServer: the wrapper has already chosen.
func serverFromContext(r *http.Request) *sdk.Server {
	s, _ := r.Context().Value(serverContextKey{}).(*sdk.Server)
	return s
}
