package mcp

import (
	"context"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
)

// ToolCallLimiter decides whether a workspace may make calls more tool calls
// on the assistant endpoint now (the spec's 120 tool calls per minute per
// workspace). It returns nil to let them run, or a *core.Error (429
// RATE_LIMIT with RetryAfterMs) that is sent before any tool runs, keeping
// its HTTP status.
type ToolCallLimiter func(ctx context.Context, p core.Principal, calls int) error

// AssistantToolCallLimit is the ToolCallLimiter cmd/giftwell plugs in: the
// workspace's shared counter in the database (core.RateAssistantToolCalls),
// so every instance sharing it counts the same 120 calls a minute.
func AssistantToolCallLimit(app *giftwell.App) ToolCallLimiter {
	return func(ctx context.Context, p core.Principal, calls int) error {
		_, err := app.ChargeRate(ctx, p.WorkspaceID, core.RateAssistantToolCalls, calls)
		return err
	}
}

// toolCallsAllowed asks the limiter, for a request to the assistant
// endpoint, about the tools/call messages it carries (each call of a batch
// counts). Without a limiter (Config.LimitAssistantToolCalls nil) every call
// runs.
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

// batchAllowed counts a batch's messages after the first (which its
// request's authentication counted) against the workspace's requests limit,
// so a batch of n messages counts n requests; one message counts nothing
// more. Over the limit, the batch is refused before any message runs.
func (h *handler) batchAllowed(w *responseWriter, r *http.Request, p core.Principal, charge *core.RateCharge, msgs []message) bool {
	if len(msgs) < 2 || !charge.Counted {
		return true
	}
	more, err := h.app.ChargeRate(r.Context(), p.WorkspaceID, core.RateRequests, len(msgs)-1)
	more.SetHeaders(w.Header())
	if err != nil {
		h.refuse(w, r, err, "")
		return false
	}
	return true
}
