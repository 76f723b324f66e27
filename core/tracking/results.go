package tracking

import (
	"context"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// OutcomeSourceTeamReported says outcomes are what the team reported,
// never inferred from delivery or opens.
const OutcomeSourceTeamReported = "team_reported"

// MeetingDenominatorBookedOrHeld says cost per meeting divides by the gifts
// whose outcome is meeting_booked or meeting_held.
const MeetingDenominatorBookedOrHeld = "meeting_booked_or_held"

// Results is a campaign's results (campaign_results). Only gifts that are
// not cancelled count; cancelled says how many were left out.
type Results struct {
	CampaignID          string `json:"campaignId" jsonschema:"the campaign"`
	TotalSends          int    `json:"totalSends" jsonschema:"gifts that are not cancelled, test and live"`
	Cancelled           int    `json:"cancelled" jsonschema:"cancelled gifts, left out of every other figure"`
	Delivered           int    `json:"delivered" jsonschema:"gifts delivered"`
	Replied             int    `json:"replied" jsonschema:"gifts whose reported outcome is replied or a meeting (a meeting implies a reply)"`
	Meetings            int    `json:"meetings" jsonschema:"gifts whose reported outcome is meeting_booked or meeting_held"`
	MeetingsHeld        int    `json:"meetingsHeld" jsonschema:"gifts whose reported outcome is meeting_held"`
	CommittedCents      int64  `json:"committedCents" jsonschema:"what the gifts cost in USD cents; declined gifts commit nothing. Not revenue"`
	CostPerMeetingCents *int64 `json:"costPerMeetingCents" jsonschema:"committedCents divided by meetings, rounded to the nearest cent; null while there are no meetings"`
	OutcomeSource       string `json:"outcomeSource" jsonschema:"team_reported: outcomes are what your team recorded with record_outcome, never inferred" schema:"enum=team_reported"`
	MeetingDenominator  string `json:"meetingDenominator" jsonschema:"what costPerMeetingCents divides by: gifts marked meeting_booked or meeting_held" schema:"enum=meeting_booked_or_held"`
}

// CampaignResults returns the results of campaign campaignID of p's
// workspace. It returns NOT_FOUND naming id for a campaign outside the
// workspace, the codes of Authorize (ActRead), or INTERNAL_ERROR.
func (a *Service) CampaignResults(ctx context.Context, p core.Principal, campaignID string) (Results, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return Results{}, err
	}
	q := db.New(a.DB)
	if _, err := q.CampaignGet(ctx, db.CampaignGetParams{WorkspaceID: p.WorkspaceID, ID: campaignID}); core.IsNoRows(err) {
		return Results{}, core.FieldError(core.CodeNotFound, "id", "no campaign %s in this workspace", core.Clip(campaignID, 60))
	} else if err != nil {
		return Results{}, core.Internal(err)
	}
	r, err := q.CampaignResults(ctx, db.CampaignResultsParams{WorkspaceID: p.WorkspaceID, CampaignID: campaignID})
	if err != nil {
		return Results{}, core.Internal(err)
	}
	out := Results{
		CampaignID: campaignID, TotalSends: int(r.TotalSends), Cancelled: int(r.Cancelled), Delivered: int(r.Delivered),
		Replied: int(r.Replied), Meetings: int(r.Meetings), MeetingsHeld: int(r.MeetingsHeld), CommittedCents: r.CommittedCents,
		OutcomeSource: OutcomeSourceTeamReported, MeetingDenominator: MeetingDenominatorBookedOrHeld,
	}
	out.CostPerMeetingCents = costPerMeetingCents(r.CommittedCents, int(r.Meetings))
	return out, nil
}

// costPerMeetingCents is committed cents over meetings, rounded half up;
// nil without a meeting.
func costPerMeetingCents(committed int64, meetings int) *int64 {
	if meetings <= 0 {
		return nil
	}
	m := int64(meetings)
	cost := (committed + m/2) / m
	return &cost
}
