package mcp

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/prompts"
	"github.com/giftwell/giftwell/resources"
	"github.com/giftwell/giftwell/tools"
)

// MaxBodyBytes is the largest request body accepted (the spec's 1 MiB);
// larger bodies get 413 REQUEST_TOO_LARGE.
const MaxBodyBytes = 1 << 20

// Config is what the MCP face serves.
type Config struct {
	// App is the domain; its Config.SiteURL is the allowed browser origin and
	// the base of the protected-resource metadata URLs.
	App *giftwell.App
	// Tools is the tool registry (normally tools.All(App)); nil means that.
	Tools []tools.Tool
	// Prompts is the prompt registry; nil means prompts.All().
	Prompts []prompts.Prompt
	// Resources is the resource registry; nil means resources.All(App).
	Resources []resources.Resource
	// Templates is the resource templates' registry; nil means
	// resources.Templates(App).
	Templates []resources.Template
	// Log receives one line per request and every internal error; nil means
	// App.Log.
	Log *slog.Logger
	// Authenticate resolves a bearer token to a principal; nil means
	// App.Authenticate. Tests replace it to stand in for sign-in connections.
	Authenticate func(ctx context.Context, bearer string) (core.Principal, error)
	// LimitAssistantToolCalls limits tool calls on the assistant endpoint
	// (/chatgpt/mcp) per workspace; nil means no limit.
	LimitAssistantToolCalls ToolCallLimiter
}

// handler is the http.Handler NewHandler returns.
type handler struct {
	app          *giftwell.App
	log          *slog.Logger
	authenticate func(ctx context.Context, bearer string) (core.Principal, error)
	origin       string // the site's origin, scheme://host[:port], lower case
	// limitToolCalls is Config.LimitAssistantToolCalls.
	limitToolCalls ToolCallLimiter

	tools     []tools.Tool
	byName    map[string]tools.Tool
	sdkTools  map[string]*sdk.Tool // built once, shared read-only by every server
	prompts   []prompts.Prompt
	resources []resources.Resource
	templates []resources.Template
	impl      *sdk.Implementation

	sdk     *sdk.StreamableHTTPHandler
	servers sync.Map // serverKey → *served
	// sdkOnly sends every request to the SDK, fastCall's included (tests
	// compare the two).
	sdkOnly bool
}

// NewHandler returns the MCP face. It serves POST at /mcp (key: the full
// profile; ?profile=gifting: the gifting profile; connection: the gifting
// profile narrowed by its scopes) and at /chatgpt/mcp (connections with
// gifts:read only). Any other path gets 404.
func NewHandler(cfg Config) http.Handler {
	if cfg.App == nil {
		panic("mcp: Config.App is nil")
	}
	if cfg.Tools == nil {
		cfg.Tools = tools.All(cfg.App)
	}
	if cfg.Prompts == nil {
		cfg.Prompts = prompts.All()
	}
	if cfg.Resources == nil {
		cfg.Resources = resources.All(cfg.App)
	}
	if cfg.Templates == nil {
		cfg.Templates = resources.Templates(cfg.App)
	}
	if cfg.Log == nil {
		cfg.Log = cfg.App.Log
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Authenticate == nil {
		cfg.Authenticate = cfg.App.Connect.Authenticate
	}
	h := &handler{
		app:            cfg.App,
		log:            cfg.Log,
		authenticate:   cfg.Authenticate,
		limitToolCalls: cfg.LimitAssistantToolCalls,
		origin:         originOf(cfg.App.Config.SiteURL),
		tools:          cfg.Tools,
		byName:         tools.ByName(cfg.Tools),
		sdkTools:       sdkTools(cfg.Tools),
		prompts:        cfg.Prompts,
		resources:      cfg.Resources,
		templates:      cfg.Templates,
		impl:           implementation(),
	}
	h.sdk = sdk.NewStreamableHTTPHandler(serverFromContext, &sdk.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
		Logger:       sdkLogger(cfg.Log),
		// The wrapper checks Origin against the site origin and requires a
		// bearer token, which together cover DNS rebinding; the SDK's
		// loopback Host check would refuse a reverse proxy on the same host.
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        MaxBodyBytes,
	})
	return h
}

// ServeHTTP runs the wrapper's checks in order, then answers a lone
// tools/call itself (fastCall) or hands the request to the SDK, with the
// principal and the chosen server in its context.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rw := newResponseWriter(w)
	info := &requestInfo{}
	r = r.WithContext(withRequestInfo(r.Context(), info))
	defer func() {
		rw.finish()
		h.logRequest(r, rw, info, start)
	}()

	m, ok := mountFor(r.URL.Path)
	if !ok {
		h.refuse(rw, r, core.Errorf(core.CodeNotFound, "no MCP endpoint at %s; use /mcp or /chatgpt/mcp", r.URL.Path), "")
		return
	}
	info.mount = m.path
	if !h.originAllowed(r) {
		h.refuse(rw, r, core.Errorf(core.CodeOriginForbidden, "the Origin %q is not this service's site", r.Header.Get("Origin")), "")
		return
	}
	charge := &core.RateCharge{Bucket: core.RateRequests}
	p, ok := h.principal(rw, r, m, charge)
	if !ok {
		return
	}
	info.principal = p
	if r.Method != http.MethodPost {
		rw.Header().Set("Allow", http.MethodPost)
		h.refuse(rw, r, core.Errorf(core.CodeMethodNotAllowed, "%s is not allowed; MCP here is POST only (stateless, no SSE)", r.Method), "")
		return
	}
	profile, err := m.profile(r.URL.Query(), p)
	if err != nil {
		h.refuse(rw, r, err, "")
		return
	}
	info.profile = profile
	msgs, ok := h.readMessages(rw, r)
	if !ok {
		return
	}
	info.messages = msgs
	if len(msgs) > 1 {
		info.batch = &batchAnswers{}
	}
	rw.rpcID = singleID(msgs)
	if !h.versionSupported(rw, r, msgs) {
		return
	}
	if !h.scopesCover(rw, r, m, profile, p, msgs) {
		return
	}
	if !h.batchAllowed(rw, r, p, charge, msgs) {
		return
	}
	if !h.toolCallsAllowed(rw, r, m, p, msgs) {
		return
	}

	s := h.server(profile, p)
	r = r.WithContext(withServer(core.WithPrincipal(r.Context(), p), s.sdk))
	if acceptJSON(r) && h.fastCall(rw, r, s, msgs) {
		return
	}
	h.sdk.ServeHTTP(rw, r)
}
