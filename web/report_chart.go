package web

import (
	"github.com/giftwell/giftwell/core/tracking"
)

// The reports page's chart is an SVG drawn on the server from these
// coordinates: per week, a bar of gifts and beside it a bar of meetings,
// on one scale, with the week's Monday under them. No script draws it.

// Chart geometry, in SVG user units.
const (
	chartBarWidth = 14
	chartWeekStep = 40
	chartHeight   = 160
	chartTop      = 16
	chartLeft     = 8
	chartLabels   = 40 // room under the bars for the week labels
)

// reportChart is the chart's geometry.
type reportChart struct {
	Width, Height int
	// Baseline is the y of the bars' bottom.
	Baseline int
	// Max is the largest count, the top of the scale.
	Max   int
	Weeks []chartWeek
}

// chartWeek is one week's bars and label.
type chartWeek struct {
	Week              string
	Gifts, Meetings   int
	X, LabelX, LabelY int
	GiftsY, GiftsH    int
	MeetingX          int
	MeetingY, MeetH   int
}

// chartOf lays out weeks on one scale.
func chartOf(weeks []tracking.ReportWeek) reportChart {
	c := reportChart{Height: chartTop + chartHeight + chartLabels, Baseline: chartTop + chartHeight, Max: 1}
	for _, w := range weeks {
		c.Max = max(c.Max, w.Gifts, w.Meetings)
	}
	scale := func(n int) int { return n * chartHeight / c.Max }
	for i, w := range weeks {
		x := chartLeft + i*chartWeekStep
		cw := chartWeek{Week: w.Week, Gifts: w.Gifts, Meetings: w.Meetings, X: x, MeetingX: x + chartBarWidth + 2,
			LabelX: x + chartBarWidth, LabelY: c.Baseline + 14}
		cw.GiftsH, cw.MeetH = scale(w.Gifts), scale(w.Meetings)
		cw.GiftsY, cw.MeetingY = c.Baseline-cw.GiftsH, c.Baseline-cw.MeetH
		c.Weeks = append(c.Weeks, cw)
	}
	c.Width = chartLeft*2 + max(len(weeks), 1)*chartWeekStep
	return c
}
