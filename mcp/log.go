package mcp

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5/middleware"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/reqlog"
	"github.com/giftwell/giftwell/tools"
)

// requestInfo collects what the request log reports. Tool handlers run on
// the SDK's goroutines, hence the lock.
type requestInfo struct {
	mount     string
	profile   tools.Profile
	principal core.Principal
	messages  []message
	// batch counts the answers of a batch (nil for a lone message).
	batch *batchAnswers
	// fast is set when fastCall answered the request, not the SDK.
	fast bool

	mu   sync.Mutex
	code string // the error code of the outcome, if any
}

func (ri *requestInfo) setCode(c string) {
	ri.mu.Lock()
	defer ri.mu.Unlock()
	if ri.code == "" {
		ri.code = c
	}
}

type requestInfoKey struct{}

func withRequestInfo(ctx context.Context, ri *requestInfo) context.Context {
	return context.WithValue(ctx, requestInfoKey{}, ri)
}

func requestInfoFrom(ctx context.Context) *requestInfo {
	ri, _ := ctx.Value(requestInfoKey{}).(*requestInfo)
	return ri
}

// requestID is the request id chi's RequestID middleware put in ctx, if any.
func requestID(ctx context.Context) string { return middleware.GetReqID(ctx) }

// logRequest reports the request. Served under the server's access log (the
// request carries a reqlog.Entry), the MCP details join that one line and
// name the route for the metrics; served on its own, the face writes its
// own line.
func (h *handler) logRequest(r *http.Request, w *responseWriter, ri *requestInfo, start time.Time) {
	status := w.status
	if status == 0 {
		status = http.StatusOK
	}
	var methods, names []string
	for _, m := range ri.messages {
		methods = append(methods, m.method)
		if m.name != "" {
			names = append(names, m.name)
		}
	}
	ri.mu.Lock()
	code := ri.code
	ri.mu.Unlock()
	attrs := []slog.Attr{
		slog.String("mount", ri.mount),
		slog.String("profile", string(ri.profile)),
		slog.String("rpc", strings.Join(methods, ",")),
		slog.String("name", strings.Join(names, ",")),
		slog.String("code", code),
		slog.String("workspace", ri.principal.WorkspaceID),
		slog.String("via", string(ri.principal.Via)),
		slog.Bool("fast", ri.fast),
	}
	if e := reqlog.From(r.Context()); e != nil {
		e.Add(attrs...)
		e.SetRoute("mcp", h.route(ri))
		return
	}
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelError
	}
	h.log.LogAttrs(r.Context(), level, "mcp request", append([]slog.Attr{
		slog.String("request_id", requestID(r.Context())),
		slog.String("http_method", r.Method),
		slog.String("path", ri.mount),
		slog.Int("status", status),
		slog.Duration("duration", time.Since(start)),
	}, attrs...)...)
}

// route names the request for the metrics from bounded parts only: the
// mount, then the JSON-RPC method when it is a known one, and for one
// tools/call the tool's name when the registry has it. A batch is "batch".
func (h *handler) route(ri *requestInfo) string {
	if ri.mount == "" {
		return "not_found"
	}
	if len(ri.messages) == 0 {
		return ri.mount
	}
	if len(ri.messages) > 1 {
		return ri.mount + " batch"
	}
	m := ri.messages[0]
	if !knownMethods[m.method] {
		return ri.mount + " other"
	}
	if m.method != "tools/call" {
		return ri.mount + " " + m.method
	}
	if _, ok := h.byName[m.name]; !ok {
		return ri.mount + " tools/call unknown"
	}
	return ri.mount + " tools/call " + m.name
}

// knownMethods are the JSON-RPC methods a metric label may name.
var knownMethods = map[string]bool{
	"initialize": true, "ping": true,
	"notifications/initialized": true, "notifications/cancelled": true,
	"tools/list": true, "tools/call": true,
	"prompts/list": true, "prompts/get": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
	"completion/complete": true, "logging/setLevel": true,
}

// sdkLogger passes on the SDK's warnings and errors only: at info it logs
// every ephemeral session of the stateless transport.
func sdkLogger(l *slog.Logger) *slog.Logger {
	return slog.New(minLevel{Handler: l.Handler(), min: slog.LevelWarn}).With("component", "go-sdk")
}

// minLevel drops records below min.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (m minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= m.min && m.Handler.Enabled(ctx, l)
}

func (m minLevel) WithAttrs(a []slog.Attr) slog.Handler {
	return minLevel{Handler: m.Handler.WithAttrs(a), min: m.min}
}

func (m minLevel) WithGroup(g string) slog.Handler {
	return minLevel{Handler: m.Handler.WithGroup(g), min: m.min}
}
