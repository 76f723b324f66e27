package tools

import (
	"context"
	"net/http"
	"strings"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/tracking"
)

// GetReportInput is get_report's input (GET /reports and its CSV form).
type GetReportInput struct {
	From       string `json:"from" jsonschema:"the first UTC day of gift creation, YYYY-MM-DD, included" schema:"format=date"`
	To         string `json:"to" jsonschema:"the last UTC day, YYYY-MM-DD, included; a range covers at most 366 days" schema:"format=date"`
	CampaignID string `json:"campaignId,omitempty" jsonschema:"only this campaign" schema:"maxLength=200"`
	Mode       string `json:"mode,omitempty" jsonschema:"the gifts' mode" schema:"enum=test|live,default=test"`
}

// input is the core filter of in.
func (in GetReportInput) input() tracking.ReportInput {
	return tracking.ReportInput{From: in.From, To: in.To, CampaignID: in.CampaignID, Mode: in.Mode}
}

const descGetReport = "The workspace's report for a range of days (gifts created from..to, UTC, at most 366 days) in one mode: per campaign and in total, gifts by status, committed cost, reported replies and meetings, cost per meeting, and gifts and meetings per week. " +
	"Outcomes are what the team reported, never inferred; not revenue. Changes nothing."

var descExportReport = "The report's campaign totals as CSV, one row per campaign, columns " + strings.Join(tracking.ReportExportColumns, ", ") +
	"; never a recipient's details. Same filters as get_report. Changes nothing."

// reportTools are the workspace report and its CSV form.
func reportTools(app *giftwell.App) []Tool {
	return []Tool{
		Define("get_report", descGetReport, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in GetReportInput) (tracking.Report, error) {
				return app.Tracking.GetReport(ctx, p, in.input())
			},
			Title("The workspace's report"), ReadOnly(), REST(http.MethodGet, "/reports", http.StatusOK)),
		Define("export_report", descExportReport, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in GetReportInput) (File, error) {
				export, err := app.Tracking.ExportReport(ctx, p, in.input())
				if err != nil {
					return File{}, err
				}
				return File{Name: export.Filename, Body: export.CSV}, nil
			},
			Title("Export the report as CSV"), RESTOnly(), ReadOnly(), REST(http.MethodGet, "/reports/export.csv", http.StatusOK, Produces("text/csv"))),
	}
}
