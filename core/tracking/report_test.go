package tracking_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/tracking"
	"github.com/giftwell/giftwell/internal/apptest"
)

// A report counts the gifts of one mode created in its days, per campaign
// and in total: cancelled ones apart, committed cost, reported replies and
// meetings, cost per meeting, and gifts and meetings per week; its CSV
// holds the campaign totals only.
func TestGetReport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newGifts(t)
	app := g.env.App
	alpha, beta := g.playbook("Alpha", true), g.playbook("Beta", true)
	outcome := func(send string, o tracking.Outcome) {
		_, err := app.Tracking.RecordOutcome(ctx, g.key, tracking.OutcomeInput{SendID: send, Outcome: o})
		require.NoError(t, err)
	}
	// Week of Monday 2026-03-02: three Alpha gifts, one cancelled, one with a meeting.
	a1, a2 := g.autoApproved(alpha, "a1"), g.autoApproved(alpha, "a2")
	a3 := g.autoApproved(alpha, "a3")
	_, err := app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: a3, To: gift.SendCancelled, Reason: "test"})
	require.NoError(t, err)
	outcome(a2, tracking.OutcomeMeetingBooked)
	// Week of 2026-03-09: two Beta gifts, a reply and a meeting held.
	g.env.Clock.Advance(8 * 24 * time.Hour)
	b1, b2 := g.autoApproved(beta, "b1"), g.autoApproved(beta, "b2")
	outcome(b1, tracking.OutcomeReplied)
	outcome(b2, tracking.OutcomeMeetingHeld)
	_ = a1

	r, err := app.Tracking.GetReport(ctx, g.key, tracking.ReportInput{From: "2026-03-01", To: "2026-03-15"})
	require.NoError(t, err)
	require.Equal(t, core.ModeTest, r.Mode)
	require.Equal(t, "team_reported", r.OutcomeSource)
	require.Equal(t, 4, r.Totals.Gifts)
	require.Equal(t, 1, r.Totals.Cancelled)
	require.Equal(t, 1, r.Totals.Statuses["cancelled"])
	require.Len(t, r.Totals.Statuses, len(gift.SendStatuses), "every status is named")
	unit := r.Totals.CommittedCents / 4
	require.Positive(t, unit)
	require.Equal(t, 3, r.Totals.ReportedReplies, "a meeting is a reply too")
	require.Equal(t, 2, r.Totals.ReportedMeetings)
	require.Equal(t, apptest.Ptr(2*unit), r.Totals.CostPerMeetingCents)
	require.Len(t, r.Campaigns, 2)
	require.Equal(t, "Alpha", r.Campaigns[0].Name)
	require.Equal(t, 2, r.Campaigns[0].Gifts)
	require.Equal(t, 1, r.Campaigns[0].Cancelled)
	require.Equal(t, 2*unit, r.Campaigns[0].CommittedCents)
	require.Equal(t, apptest.Ptr(2*unit), r.Campaigns[0].CostPerMeetingCents)
	require.Equal(t, beta, r.Campaigns[1].CampaignID)
	require.Equal(t, 1, r.Campaigns[1].ReportedMeetings)
	require.Equal(t, []tracking.ReportWeek{
		{Week: "2026-02-23"}, {Week: "2026-03-02", Gifts: 2, Meetings: 1}, {Week: "2026-03-09", Gifts: 2, Meetings: 1},
	}, r.Weeks)

	// The days filter gift creation, inclusive; a campaign is reported alone,
	// even without gifts; live mode has none of the test gifts.
	r, err = app.Tracking.GetReport(ctx, g.key, tracking.ReportInput{From: "2026-03-10", To: "2026-03-10"})
	require.NoError(t, err)
	require.Equal(t, 2, r.Totals.Gifts)
	require.Len(t, r.Campaigns, 1)
	r, err = app.Tracking.GetReport(ctx, g.key, tracking.ReportInput{From: "2026-03-01", To: "2026-03-05", CampaignID: beta})
	require.NoError(t, err)
	require.Equal(t, beta, r.CampaignID)
	require.Len(t, r.Campaigns, 1)
	require.Zero(t, r.Campaigns[0].Gifts)
	require.Nil(t, r.Campaigns[0].CostPerMeetingCents)
	r, err = app.Tracking.GetReport(ctx, g.key, tracking.ReportInput{From: "2026-03-01", To: "2026-03-15", Mode: "live"})
	require.NoError(t, err)
	require.Equal(t, core.ModeLive, r.Mode)
	require.Zero(t, r.Totals.Gifts)
	require.Empty(t, r.Campaigns)
	// The web page's first range: the 30 days up to today.
	from, to := tracking.DefaultReportRange(g.env.Clock.Now())
	require.Equal(t, "2026-02-09", from)
	require.Equal(t, "2026-03-10", to)

	// The CSV: campaign totals only.
	export, err := app.Tracking.ExportReport(ctx, g.key, tracking.ReportInput{From: "2026-03-01", To: "2026-03-15"})
	require.NoError(t, err)
	require.Equal(t, "giftwell-report-test-2026-03-01-2026-03-15.csv", export.Filename)
	lines := strings.Split(strings.TrimSpace(string(export.CSV)), "\n")
	require.Equal(t, strings.Join(tracking.ReportExportColumns, ","), lines[0])
	require.Len(t, lines, 3)
	require.True(t, strings.HasPrefix(lines[1], alpha+",Alpha,test,2026-03-01,2026-03-15,2,1,"), lines[1])
	require.NotContains(t, string(export.CSV), "secret-", "never a recipient's details")
}

// A bad date, from after to, a range over 366 days and an unknown mode are
// VALIDATION_ERROR naming the field; another workspace's campaign is NOT_FOUND.
func TestGetReportRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newGifts(t)
	for _, c := range []struct {
		in    tracking.ReportInput
		field string
	}{
		{tracking.ReportInput{From: "2026-3-1", To: "2026-03-05"}, "from"},
		{tracking.ReportInput{From: "2026-03-01", To: "2026-02-30"}, "to"},
		{tracking.ReportInput{From: "2026-03-06", To: "2026-03-05"}, "from"},
		{tracking.ReportInput{From: "2025-02-28", To: "2026-03-01"}, "to"},
		{tracking.ReportInput{Mode: "prod"}, "mode"},
		{tracking.ReportInput{To: "2026-03-05"}, "from"},
		{tracking.ReportInput{From: "2026-03-05"}, "to"},
	} {
		_, err := g.env.App.Tracking.GetReport(ctx, g.key, c.in)
		e := apptest.RequireCode(t, err, core.CodeValidation)
		require.Equal(t, []string{c.field}, e.Fields, "%+v: %s", c.in, e.Message)
	}
	// 366 days, both ends included, is the most.
	_, err := g.env.App.Tracking.GetReport(ctx, g.key, tracking.ReportInput{From: "2025-03-02", To: "2026-03-02"})
	require.NoError(t, err)
	_, err = g.env.App.Tracking.GetReport(ctx, g.key, tracking.ReportInput{From: "2026-03-01", To: "2026-03-02", CampaignID: "cmp_nope"})
	e := apptest.RequireCode(t, err, core.CodeNotFound)
	require.Equal(t, []string{"campaignId"}, e.Fields)
}
