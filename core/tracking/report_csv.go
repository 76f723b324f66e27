package tracking

import (
	"bytes"
	"context"
	"encoding/csv"
	"strconv"

	"github.com/giftwell/giftwell/core"
)

// ReportExportColumns are the columns of GET /reports/export.csv: one row
// per campaign of the report with its totals, never a recipient's details;
// the figures added with gift.Totals (sent to refunded_cents) come last, so
// that older readers of the first columns read on.
var ReportExportColumns = []string{
	"campaign_id", "campaign_name", "mode", "from", "to", "gifts", "cancelled", "committed_cents",
	"reported_replies", "reported_meetings", "cost_per_meeting_cents",
	"sent", "declined", "expired", "refunded", "held_cents", "refunded_cents",
}

// ReportExport is a report as CSV.
type ReportExport struct {
	Filename string
	CSV      []byte
}

// ExportReport writes the report of in as CSV: a header under
// ReportExportColumns, then the report's campaigns, one row each (empty
// cost_per_meeting_cents without meetings). Codes as GetReport.
func (a *Service) ExportReport(ctx context.Context, p core.Principal, in ReportInput) (ReportExport, error) {
	r, err := a.report(ctx, p, in, false)
	if err != nil {
		return ReportExport{}, err
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(ReportExportColumns)
	for _, c := range r.Campaigns {
		cost := ""
		if c.CostPerMeetingCents != nil {
			cost = strconv.FormatInt(*c.CostPerMeetingCents, 10)
		}
		_ = w.Write([]string{
			c.CampaignID, core.CSVCell(c.Name), string(r.Mode), r.From, r.To, strconv.Itoa(c.Gifts), strconv.Itoa(c.Cancelled),
			strconv.FormatInt(c.CommittedCents, 10), strconv.Itoa(c.ReportedReplies), strconv.Itoa(c.ReportedMeetings), cost,
			strconv.Itoa(c.Sent), strconv.Itoa(c.Declined), strconv.Itoa(c.Expired), strconv.Itoa(c.Refunded),
			strconv.FormatInt(c.HeldCents, 10), strconv.FormatInt(c.RefundedCents, 10),
		})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return ReportExport{}, core.Internal(err)
	}
	return ReportExport{Filename: "giftwell-report-" + string(r.Mode) + "-" + r.From + "-" + r.To + ".csv", CSV: buf.Bytes()}, nil
}
