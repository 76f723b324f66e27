package web

import (
	"github.com/giftwell/giftwell/core/tracking"
)

// The reports page's chart is an SVG drawn on the server from these
// coordinates: per week, a bar of gifts and beside it a bar of meetings,
// on one scale with labelled gridlines, the week's Monday under them and
// the axes named. No script draws it; a table of the same numbers sits
// under it for screen readers and for copying.

// Chart geometry, in SVG user units (the SVG scales to its column).
const (
	chartBarWidth = 16
	chartWeekStep = 48
	chartHeight   = 200
	chartTop      = 20
	chartLeft     = 56 // room for the scale's numbers and the axis name
	chartRight    = 16
	chartLabels   = 48 // room under the bars for the week labels and the axis name
	chartMinWidth = 360
)

// reportChart is the chart's geometry.
type reportChart struct {
	Width, Height int
	// Baseline is the y of the bars' bottom; Left is the x of the y axis.
	Baseline, Left int
	// Max is the top of the scale, a round number at least the largest count.
	Max   int
	Ticks []chartTick
	Weeks []chartWeek
	// AxisX and AxisY place the axes' names.
	AxisX, AxisY, AxisMidY int
}

// chartTick is one labelled gridline of the scale.
type chartTick struct {
	Value, Y int
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

// niceMax is the smallest of 1, 2, 5 times a power of ten, times 4 ticks,
// that is at least n: a scale whose gridlines read as round numbers.
func niceMax(n int) int {
	if n <= 4 {
		return 4
	}
	step := 1
	for {
		for _, m := range []int{1, 2, 5} {
			if m*step*4 >= n {
				return m * step * 4
			}
		}
		step *= 10
	}
}

// chartOf lays out weeks on one scale.
func chartOf(weeks []tracking.ReportWeek) reportChart {
	most := 0
	for _, w := range weeks {
		most = max(most, w.Gifts, w.Meetings)
	}
	c := reportChart{Height: chartTop + chartHeight + chartLabels, Baseline: chartTop + chartHeight, Left: chartLeft, Max: niceMax(most)}
	scale := func(n int) int { return n * chartHeight / c.Max }
	for i := 0; i <= 4; i++ {
		v := c.Max * i / 4
		c.Ticks = append(c.Ticks, chartTick{Value: v, Y: c.Baseline - scale(v)})
	}
	for i, w := range weeks {
		x := chartLeft + 8 + i*chartWeekStep
		cw := chartWeek{Week: w.Week, Gifts: w.Gifts, Meetings: w.Meetings, X: x, MeetingX: x + chartBarWidth + 2,
			LabelX: x + chartBarWidth + 1, LabelY: c.Baseline + 16}
		cw.GiftsH, cw.MeetH = scale(w.Gifts), scale(w.Meetings)
		cw.GiftsY, cw.MeetingY = c.Baseline-cw.GiftsH, c.Baseline-cw.MeetH
		c.Weeks = append(c.Weeks, cw)
	}
	c.Width = max(chartMinWidth, chartLeft+8+max(len(weeks), 1)*chartWeekStep+chartRight)
	c.AxisX, c.AxisY, c.AxisMidY = chartLeft+(c.Width-chartLeft)/2, c.Height-6, chartTop+chartHeight/2
	return c
}
