package tracking

import (
	"context"
	"fmt"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// Report bounds from the spec: a range of at most 366 days of UTC dates.
const (
	// MaxReportDays is the longest range a report covers, from and to included.
	MaxReportDays = 366
	// DefaultReportDays is the range the web page shows first
	// (DefaultReportRange).
	DefaultReportDays = 30
	// reportDate is the layout of from and to.
	reportDate = "2006-01-02"
)

// ReportInput is get_report's filter: inclusive UTC dates of gift
// creation, an optional campaign, and the mode (test unless live).
type ReportInput struct {
	From       string
	To         string
	CampaignID string
	Mode       string
}

// ReportCounts are a report's figures for one campaign or in total: the
// gifts created in the range by status, their money by the one definition
// of each figure (gift.Totals), and the outcomes the team reported for
// them.
type ReportCounts struct {
	Gifts               int            `json:"gifts" jsonschema:"gifts created in the range that are not cancelled: sent + declined + expired"`
	Cancelled           int            `json:"cancelled" jsonschema:"cancelled gifts, left out of every other figure"`
	Sent                int            `json:"sent" jsonschema:"gifts on their way to their person or with them: awaiting_address, ready, in_production, shipped or delivered"`
	Declined            int            `json:"declined" jsonschema:"gifts their recipient declined, refunded or not"`
	Expired             int            `json:"expired" jsonschema:"gifts whose link expired before an address was confirmed, refunded or not"`
	Refunded            int            `json:"refunded" jsonschema:"declined or expired gifts whose cost came back, credited to the balance or refunded to the card"`
	Statuses            map[string]int `json:"statuses" jsonschema:"gifts by current status, every status named, cancelled included"`
	CommittedCents      int64          `json:"committedCents" jsonschema:"what the gifts that are not cancelled cost in USD cents, less what came back (refundedCents): every sent gift, and a declined or expired gift until it is refunded. Not revenue"`
	HeldCents           int64          `json:"heldCents" jsonschema:"the part of committedCents held for declined or expired gifts not refunded yet: it waits for a regift or a refund"`
	RefundedCents       int64          `json:"refundedCents" jsonschema:"what came back for refunded gifts in USD cents, to the balance or the card"`
	ReportedReplies     int            `json:"reportedReplies" jsonschema:"gifts whose reported outcome is replied or a meeting"`
	ReportedMeetings    int            `json:"reportedMeetings" jsonschema:"gifts whose reported outcome is meeting_booked or meeting_held"`
	CostPerMeetingCents *int64         `json:"costPerMeetingCents" jsonschema:"committedCents divided by reportedMeetings, rounded to the nearest cent; null without meetings"`

	totals gift.Totals
}

// ReportCampaign is one campaign's row of a report.
type ReportCampaign struct {
	CampaignID string `json:"campaignId" jsonschema:"the campaign"`
	Name       string `json:"name" jsonschema:"the campaign's name"`
	ReportCounts
}

// ReportWeek is one week of a report's chart: the gifts created that week
// (Monday to Sunday, UTC) that are not cancelled and those of them with a
// reported meeting.
type ReportWeek struct {
	Week     string `json:"week" jsonschema:"the week's Monday, YYYY-MM-DD (UTC)"`
	Gifts    int    `json:"gifts" jsonschema:"gifts created that week that are not cancelled"`
	Meetings int    `json:"meetings" jsonschema:"of those, gifts whose reported outcome is meeting_booked or meeting_held"`
}

// Report is get_report's answer: a workspace's gifts of one mode created
// from from to to (inclusive UTC dates), per campaign and in total, with
// the weeks of the range for a chart.
type Report struct {
	Mode          core.Mode        `json:"mode" jsonschema:"the gifts' mode" schema:"enum=test|live"`
	From          string           `json:"from" jsonschema:"the first day, YYYY-MM-DD (UTC), included"`
	To            string           `json:"to" jsonschema:"the last day, YYYY-MM-DD (UTC), included"`
	CampaignID    string           `json:"campaignId,omitempty" jsonschema:"the one campaign reported, when asked for"`
	Totals        ReportCounts     `json:"totals" jsonschema:"every campaign together"`
	Campaigns     []ReportCampaign `json:"campaigns" jsonschema:"campaigns with gifts in the range (the one asked for, always), by name"`
	Weeks         []ReportWeek     `json:"weeks" jsonschema:"every week the range touches, oldest first"`
	OutcomeSource string           `json:"outcomeSource" jsonschema:"team_reported: outcomes are what your team recorded, never inferred" schema:"enum=team_reported"`
}

// reportRange is a report's checked filter: its days as [start, end) in UTC.
type reportRange struct {
	mode       core.Mode
	from, to   string
	start, end time.Time
	campaignID string
}

// GetReport returns p's workspace's report for in. It returns
// VALIDATION_ERROR naming from or to (missing or not a YYYY-MM-DD date, from after to,
// a range over 366 days) or mode, NOT_FOUND naming campaignId for a
// campaign outside the workspace, the codes of Authorize (ActRead), or
// INTERNAL_ERROR.
func (a *Service) GetReport(ctx context.Context, p core.Principal, in ReportInput) (Report, error) {
	return a.report(ctx, p, in, true)
}

// report is GetReport, with its weeks only when weeks is set (the CSV
// export has none), in one snapshot.
func (a *Service) report(ctx context.Context, p core.Principal, in ReportInput, weeks bool) (Report, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return Report{}, err
	}
	r, err := checkReportRange(in)
	if err != nil {
		return Report{}, err
	}
	var out Report
	err = a.ReadTx(ctx, func(q *db.Queries) error {
		if out, err = readReport(ctx, q, p.WorkspaceID, r); err != nil || !weeks {
			return err
		}
		out.Weeks, err = readWeeks(ctx, q, p.WorkspaceID, r)
		return err
	})
	return out, err
}

// DefaultReportRange is the range a report page shows before one is
// chosen: the DefaultReportDays up to today (UTC) at now, as from and to.
func DefaultReportRange(now time.Time) (from, to string) {
	today := now.UTC().Truncate(24 * time.Hour)
	return today.AddDate(0, 0, 1-DefaultReportDays).Format(reportDate), today.Format(reportDate)
}

// checkReportRange checks in against the spec's bounds: from and to are
// required.
func checkReportRange(in ReportInput) (reportRange, error) {
	r := reportRange{mode: core.ModeTest, campaignID: in.CampaignID}
	switch core.Mode(in.Mode) {
	case "", core.ModeTest:
	case core.ModeLive:
		r.mode = core.ModeLive
	default:
		return r, core.Invalid("mode", "must be test or live (default test)")
	}
	from, err := parseReportDate("from", in.From)
	if err != nil {
		return r, err
	}
	to, err := parseReportDate("to", in.To)
	if err != nil {
		return r, err
	}
	if from.After(to) {
		return r, core.Invalid("from", "is %s, after to %s; from must be on or before to", from.Format(reportDate), to.Format(reportDate))
	}
	if days := int(to.Sub(from).Hours()/24) + 1; days > MaxReportDays {
		return r, core.Invalid("to", "makes a range of %d days from %s; a report covers at most %d days", days, from.Format(reportDate), MaxReportDays)
	}
	r.from, r.to = from.Format(reportDate), to.Format(reportDate)
	r.start, r.end = from, to.AddDate(0, 0, 1)
	return r, nil
}

// parseReportDate reads field's date v, or VALIDATION_ERROR naming field.
func parseReportDate(field, v string) (time.Time, error) {
	t, err := time.Parse(reportDate, v)
	switch {
	case err == nil:
		return t, nil
	case v == "":
		return t, core.Invalid(field, "%s", "is required: a UTC date YYYY-MM-DD")
	}
	return t, core.Invalid(field, "%s", fmt.Sprintf("must be a UTC date YYYY-MM-DD (%q is not)", core.Clip(v, 40)))
}

// readReport reads the report of range r of workspaceID on q, without its
// weeks (readWeeks).
func readReport(ctx context.Context, q *db.Queries, workspaceID string, r reportRange) (Report, error) {
	out := Report{Mode: r.mode, From: r.from, To: r.to, CampaignID: r.campaignID, Totals: newReportCounts(),
		Campaigns: []ReportCampaign{}, OutcomeSource: OutcomeSourceTeamReported}
	var only *string
	if r.campaignID != "" {
		c, err := q.CampaignGet(ctx, db.CampaignGetParams{WorkspaceID: workspaceID, ID: r.campaignID})
		if core.IsNoRows(err) {
			return Report{}, core.FieldError(core.CodeNotFound, "campaignId", "no campaign %s in this workspace; list_campaigns shows its campaigns", core.Clip(r.campaignID, 60))
		}
		if err != nil {
			return Report{}, core.Internal(err)
		}
		only = &c.ID
		out.Campaigns = append(out.Campaigns, ReportCampaign{CampaignID: c.ID, Name: c.Name, ReportCounts: newReportCounts()})
	}
	rows, err := q.ReportCampaigns(ctx, db.ReportCampaignsParams{WorkspaceID: workspaceID, Mode: string(r.mode), FromAt: r.start, ToAt: r.end, CampaignID: only})
	if err != nil {
		return Report{}, core.Internal(err)
	}
	for _, row := range rows {
		if n := len(out.Campaigns); n == 0 || out.Campaigns[n-1].CampaignID != row.CampaignID {
			out.Campaigns = append(out.Campaigns, ReportCampaign{CampaignID: row.CampaignID, Name: row.CampaignName, ReportCounts: newReportCounts()})
		}
		c := &out.Campaigns[len(out.Campaigns)-1]
		c.add(row)
		out.Totals.add(row)
	}
	for i := range out.Campaigns {
		out.Campaigns[i].finish()
	}
	out.Totals.finish()
	return out, nil
}

// readWeeks reads the weeks of the report of range r of workspaceID on q.
func readWeeks(ctx context.Context, q *db.Queries, workspaceID string, r reportRange) ([]ReportWeek, error) {
	var only *string
	if r.campaignID != "" {
		only = &r.campaignID
	}
	weeks, err := q.ReportWeeks(ctx, db.ReportWeeksParams{WorkspaceID: workspaceID, Mode: string(r.mode), FromAt: r.start, ToAt: r.end, CampaignID: only})
	if err != nil {
		return nil, core.Internal(err)
	}
	return weeksOf(r, weeks), nil
}

// newReportCounts are zero counts naming every gift status.
func newReportCounts() ReportCounts {
	c := ReportCounts{Statuses: make(map[string]int, len(gift.SendStatuses))}
	for _, s := range gift.SendStatuses {
		c.Statuses[string(s)] = 0
	}
	return c
}

// add counts row (one campaign's gifts in one status, payment and money
// state) into c.
func (c *ReportCounts) add(row db.ReportCampaignsRow) {
	st := gift.SendStatus(row.Status)
	c.Statuses[row.Status] += int(row.Gifts)
	c.totals.Add(st, gift.FundedBy(row.FundedBy), row.MoneyBack, int(row.Gifts), row.Cents)
	if st != gift.SendCancelled {
		c.ReportedReplies += int(row.Replies)
		c.ReportedMeetings += int(row.Meetings)
	}
}

// finish sets c's figures from its totals, and its cost per meeting as
// campaign_results rounds it.
func (c *ReportCounts) finish() {
	t := c.totals
	c.Gifts, c.Cancelled, c.Sent, c.Declined, c.Expired, c.Refunded = t.Gifts, t.Cancelled, t.Sent, t.Declined, t.Expired, t.Refunded
	c.CommittedCents, c.HeldCents, c.RefundedCents = t.CommittedCents, t.HeldCents, t.RefundedCents
	c.CostPerMeetingCents = costPerMeetingCents(c.CommittedCents, c.ReportedMeetings)
}

// weeksOf is every week r touches, Monday first, with the counts read.
func weeksOf(r reportRange, rows []db.ReportWeeksRow) []ReportWeek {
	byWeek := make(map[string]db.ReportWeeksRow, len(rows))
	for _, row := range rows {
		byWeek[row.Week] = row
	}
	monday := r.start.AddDate(0, 0, -((int(r.start.Weekday()) + 6) % 7))
	var out []ReportWeek
	for w := monday; w.Before(r.end); w = w.AddDate(0, 0, 7) {
		key := w.Format(reportDate)
		row := byWeek[key]
		out = append(out, ReportWeek{Week: key, Gifts: int(row.Gifts), Meetings: int(row.Meetings)})
	}
	return out
}
