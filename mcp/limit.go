package mcp

import (
	"context"
	"net/http"

	"github.com/giftwell/giftwell/core"
)

// ToolCallLimiter decides whether a workspace may make calls more tool calls
// on the assistant endpoint now (the spec's 120 tool calls per minute per
// workspace). It returns nil to let them run, or a *core.Error (429
// RATE_LIMIT with RetryAfterMs) that is sent before any tool runs, keeping
// its HTTP status.
type ToolCallLimiter func(ctx context.Context, p core.Principal, calls int) error

// toolCallsAllowed asks the limiter, for a request to the assistant
// endpoint, about the tools/call messages it carries (each call of a batch
// counts). Without a limiter (Config.LimitAssistantToolCalls nil) every call
// runs; cmd/giftwell plugs in a ToolCallWindow, which the limits issue's
// shared counter is to replace.
func (h *handler) toolCallsAllowed(w *responseWriter, r *http.Request, m mount, p core.Principal, msgs []message) bool {
	if h.limitToolCalls == nil || !m.chatgpt {
		return true
	}
	calls := 0
	for _, msg := range msgs {
		if msg.method == "tools/call" {
			calls++
		}
	}
	if calls == 0 {
		return true
	}
	if err := h.limitToolCalls(r.Context(), p, calls); err != nil {
		h.refuse(w, r, err, "")
		return false
	}
	return true
}
