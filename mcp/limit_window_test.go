package mcp_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/mcp"
)

// TestToolCallWindowCountsPerWorkspacePerClockMinute: calls count per
// workspace; going over refuses the whole request with the time left in
// the minute and counts none of it; the next clock minute starts afresh.
func TestToolCallWindowCountsPerWorkspacePerClockMinute(t *testing.T) {
	t.Parallel()
	clock := core.NewFakeClock(time.Date(2026, 5, 1, 10, 0, 45, 0, time.UTC))
	w := mcp.NewToolCallWindow(5, clock)
	ctx := context.Background()
	a, b := core.Principal{WorkspaceID: "ws_a"}, core.Principal{WorkspaceID: "ws_b"}

	require.NoError(t, w.Allow(ctx, a, 3))
	err := w.Allow(ctx, a, 3)
	e := core.AsError(err)
	require.Equal(t, core.CodeRateLimit, e.Code)
	require.EqualValues(t, 15_000, e.RetryAfterMs, "the time left in the clock minute")
	require.NoError(t, w.Allow(ctx, a, 2), "the refused request counted nothing")
	require.Error(t, w.Allow(ctx, a, 1))
	require.NoError(t, w.Allow(ctx, b, 5), "another workspace has its own count")

	clock.Advance(15 * time.Second) // 10:01:00, a new window
	require.NoError(t, w.Allow(ctx, a, 5))
	require.Error(t, w.Allow(ctx, a, 1))
}
