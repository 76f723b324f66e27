package web

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/tracking"
)

// The chart's scale tops out at a round number at least the largest bar,
// in four labelled steps, and the bars keep their proportions.
func TestChartScaleIsRound(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]int{0: 4, 3: 4, 5: 8, 9: 20, 21: 40, 39: 40, 41: 80, 170: 200, 801: 2000} {
		require.Equal(t, want, niceMax(n), "largest %d", n)
		require.GreaterOrEqual(t, niceMax(n), n)
	}
	c := chartOf([]tracking.ReportWeek{{Week: "2026-03-02", Gifts: 10, Meetings: 5}, {Week: "2026-03-09", Gifts: 20}})
	require.Equal(t, 20, c.Max)
	require.Len(t, c.Ticks, 5)
	require.Equal(t, []int{0, 5, 10, 15, 20}, []int{c.Ticks[0].Value, c.Ticks[1].Value, c.Ticks[2].Value, c.Ticks[3].Value, c.Ticks[4].Value})
	require.Equal(t, chartHeight, c.Weeks[1].GiftsH, "the largest bar reaches the top")
	require.Equal(t, chartHeight/2, c.Weeks[0].GiftsH)
	require.Equal(t, chartHeight/4, c.Weeks[0].MeetH)
	require.GreaterOrEqual(t, c.Width, chartMinWidth)
}
