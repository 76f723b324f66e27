package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/tracking"
)

// TestReportsPage draws the report of a range with its SVG chart of gifts
// and meetings per week and its CSV link, and names a refused range next
// to its field.
func TestReportsPage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)

	res := owner.get("/reports?from=2026-03-01&to=2026-03-31")
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Contains(t, res.Body, `aria-current="page">Reports`)
	require.Contains(t, res.Body, `<svg id="report-chart"`)
	require.Equal(t, 6, strings.Count(res.Body, `class="chart-week"`), "one group of bars per week the range touches")
	require.Contains(t, res.Body, `data-week="2026-03-30"`)
	require.Equal(t, 5, strings.Count(res.Body, `class="chart-grid"`), "a labelled scale: 0 to the top in four steps")
	require.Contains(t, res.Body, ">Week starting (Monday, UTC)</text>", "the axes are named")
	require.Contains(t, res.Body, `<table id="report-weeks"`, "a table of the same numbers")
	require.Equal(t, 6, strings.Count(between(t, res.Body, `id="report-weeks"`, `</table>`), "<tr><td"), "one row per week")
	require.Contains(t, res.Body, `class="stats"`)
	require.Contains(t, res.Body, `id="total-gifts">0<`)
	require.Contains(t, res.Body, "No gifts in these days.")
	require.Contains(t, res.Body, `href="/api/v1/reports/export.csv?from=2026-03-01&amp;mode=test&amp;to=2026-03-31"`)
	main := res.Body[strings.Index(res.Body, "<main"):]
	require.NotContains(t, main, "<script", "the chart is drawn on the server")
	require.NotContains(t, main, "style=", "no inline style (the CSP refuses it)")

	// Without a range: the 30 days up to today.
	res = owner.get("/reports")
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	from, to := tracking.DefaultReportRange(h.env.App.Clock.Now())
	require.Contains(t, res.Body, `name="from" type="date" value="`+from+`"`)
	require.Contains(t, res.Body, `name="to" type="date" value="`+to+`"`)

	res = owner.get("/reports?from=2026-04-01&to=2026-03-01")
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	require.Contains(t, res.Body, "from-error")
	require.NotContains(t, res.Body, `<svg id="report-chart"`)
}
