package tools_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/tracking"
	"github.com/giftwell/giftwell/tools"
)

// list_tracking_events offers exactly the feed's types as `type`, and its
// items say the same: every event type but playbook.person_waiting.
func TestTrackingEventTypesAreTheFeeds(t *testing.T) {
	t.Parallel()
	tool := tools.ByName(tools.All(nil))["list_tracking_events"]
	var want []any
	for _, typ := range tracking.FeedTypes {
		want = append(want, string(typ))
	}
	require.Equal(t, want, tool.InputSchema.Properties["type"].Enum)
	item := tool.DataSchema.Properties["items"].Items
	require.Equal(t, want, item.Properties["type"].Enum)
	require.NotContains(t, want, "playbook.person_waiting")
}
