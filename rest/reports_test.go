package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/tracking"
)

// TestReportsOverREST reads GET /reports and GET /reports/export.csv with a
// key, validated against the OpenAPI documents: the report's shape, the
// CSV's header, and VALIDATION_ERROR naming the field of a bad range.
func TestReportsOverREST(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	key := withKey(h.env.OwnerKey)

	res := h.get("/reports?from=2026-03-01&to=2026-03-31&mode=test", key)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	data := res.data().(map[string]any)
	require.Equal(t, "test", data["mode"])
	require.Equal(t, "2026-03-01", data["from"])
	require.Equal(t, "2026-03-31", data["to"])
	require.Equal(t, "team_reported", data["outcomeSource"])
	require.Equal(t, []any{}, data["campaigns"])
	totals := data["totals"].(map[string]any)
	for _, f := range []string{"gifts", "cancelled", "statuses", "committedCents", "reportedReplies", "reportedMeetings", "costPerMeetingCents"} {
		require.Contains(t, totals, f)
	}
	require.Len(t, data["weeks"], 6, "2026-03-01 is a Sunday")

	exp := h.csv("/reports/export.csv?from=2026-03-01&to=2026-03-31", key)
	require.Equal(t, http.StatusOK, exp.StatusCode, "%s", exp.body)
	require.Equal(t, "text/csv; charset=utf-8", exp.Header.Get("Content-Type"))
	require.Contains(t, exp.Header.Get("Content-Disposition"), "giftwell-report-test-2026-03-01-2026-03-31.csv")
	require.Equal(t, strings.Join(tracking.ReportExportColumns, ",")+"\n", exp.body)

	for q, field := range map[string]string{
		"from=2026-13-01&to=2026-03-31": "from",
		"from=2026-03-02&to=2026-03-01": "from",
		"from=2025-01-01&to=2026-03-01": "to",
		"to=2026-03-01":                 "from",
	} {
		res := h.get("/reports?"+q, key)
		require.Equal(t, http.StatusBadRequest, res.Status, "%s: %s", q, res.Body)
		require.Equal(t, "VALIDATION_ERROR", res.code())
		require.True(t, strings.HasPrefix(res.message(), field+":"), "%s: %s", q, res.message())
		require.Equal(t, http.StatusBadRequest, h.get("/reports/export.csv?"+q, key).Status)
	}
}
