package mcp

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/giftwell/giftwell/core"
)

// AssistantToolCallsPerMinute is the spec's limit on tool calls at the
// assistant endpoint: 120 per minute per workspace.
const AssistantToolCallsPerMinute = 120

// ToolCallWindow counts tool calls per workspace in fixed clock-minute
// windows (the spec's windows), in this process only: with several
// instances each counts its own calls, until the limits issue's shared
// counter replaces it. Safe for concurrent use; it holds one count per
// workspace seen in the current minute.
type ToolCallWindow struct {
	limit int
	clock core.Clock

	mu     sync.Mutex
	window time.Time      // the start of the current minute
	calls  map[string]int // workspace ID → calls in the window
}

// NewToolCallWindow returns a window allowing limit calls per workspace per
// clock minute, by clock.
func NewToolCallWindow(limit int, clock core.Clock) *ToolCallWindow {
	return &ToolCallWindow{limit: limit, clock: clock, calls: map[string]int{}}
}

// Allow is a ToolCallLimiter: it counts calls against p's workspace, or
// returns RATE_LIMIT with the time left in the minute when they would take
// the workspace over the limit (and then counts none of them).
func (w *ToolCallWindow) Allow(_ context.Context, p core.Principal, calls int) error {
	now := w.clock.Now()
	start := now.Truncate(time.Minute)
	w.mu.Lock()
	defer w.mu.Unlock()
	if !start.Equal(w.window) {
		w.window = start
		clear(w.calls)
	}
	if w.calls[p.WorkspaceID]+calls > w.limit {
		left := start.Add(time.Minute).Sub(now)
		return &core.Error{Code: core.CodeRateLimit, RetryAfterMs: max(left.Milliseconds(), 1), Message: fmt.Sprintf(
			"this workspace has used its %d tool calls this minute at the assistant endpoint; wait retryAfterMs, then call again", w.limit)}
	}
	w.calls[p.WorkspaceID] += calls
	return nil
}

var _ ToolCallLimiter = (*ToolCallWindow)(nil).Allow
