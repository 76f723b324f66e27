package web

import (
	"net/http"
	"net/url"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/tracking"
)

// reportFields are the report form's fields, as get_report names them.
var reportFields = []string{"from", "to", "mode"}

// reportData is the content of the reports page: the report (nil when the
// form's range was refused), its chart and where its CSV is.
type reportData struct {
	Report *tracking.Report
	Chart  reportChart
	CSVURL string
}

// reports shows the workspace's report for the range in the query (the
// last 30 days in the session's mode by default), with a chart of gifts
// and meetings per week; a refused range is shown next to its field.
func (h *handler) reports(w http.ResponseWriter, r *http.Request, s session) {
	q := r.URL.Query()
	in := tracking.ReportInput{From: q.Get("from"), To: q.Get("to"), CampaignID: q.Get("campaignId"), Mode: q.Get("mode")}
	if in.Mode == "" {
		in.Mode = string(s.Principal.Mode)
	}
	if in.From == "" && in.To == "" {
		in.From, in.To = tracking.DefaultReportRange(h.app.Clock.Now())
	}
	values := url.Values{"from": {in.From}, "to": {in.To}, "mode": {in.Mode}}
	rep, err := h.app.Tracking.GetReport(r.Context(), s.Principal, in)
	if err != nil {
		if core.ErrorCode(err) != core.CodeValidation {
			h.fail(w, r, &s, err)
			return
		}
		p := h.problemFor(r, err, reportFields...)
		h.page(w, r, s, p.Status, "reports", view{Nav: "reports", Problem: p, Values: values, Data: reportData{}})
		return
	}
	values.Set("from", rep.From)
	values.Set("to", rep.To)
	values.Set("mode", string(rep.Mode))
	csv := url.Values{"from": {rep.From}, "to": {rep.To}, "mode": {string(rep.Mode)}}
	if rep.CampaignID != "" {
		csv.Set("campaignId", rep.CampaignID)
	}
	h.page(w, r, s, http.StatusOK, "reports", view{Nav: "reports", Values: values, Data: reportData{
		Report: &rep, Chart: chartOf(rep.Weeks), CSVURL: "/api/v1/reports/export.csv?" + csv.Encode(),
	}})
}
