package tracking

import (
	"context"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// OutcomeSourceTeamReported says outcomes are what the team reported,
// never inferred from delivery or opens.
const OutcomeSourceTeamReported = "team_reported"

// MeetingDenominatorBookedOrHeld says cost per meeting divides by the gifts
// whose outcome is meeting_booked or meeting_held.
const MeetingDenominatorBookedOrHeld = "meeting_booked_or_held"

// Results is a campaign's results (campaign_results). Only gifts that are
// not cancelled count; cancelled says how many were left out. Its gifts
// and money follow the one definition of each figure (gift.Totals).
type Results struct {
	CampaignID          string `json:"campaignId" jsonschema:"the campaign"`
	TotalSends          int    `json:"totalSends" jsonschema:"gifts that are not cancelled, test and live: sent + declined + expired"`
	Cancelled           int    `json:"cancelled" jsonschema:"cancelled gifts, left out of every other figure"`
	Sent                int    `json:"sent" jsonschema:"gifts on their way to their person or with them: awaiting_address, ready, in_production, shipped or delivered"`
	Delivered           int    `json:"delivered" jsonschema:"gifts delivered"`
	Declined            int    `json:"declined" jsonschema:"gifts their recipient declined, refunded or not"`
	Expired             int    `json:"expired" jsonschema:"gifts whose link expired before an address was confirmed, refunded or not"`
	Refunded            int    `json:"refunded" jsonschema:"declined or expired gifts whose cost came back, credited to the balance or refunded to the card"`
	Replied             int    `json:"replied" jsonschema:"gifts whose reported outcome is replied or a meeting (a meeting implies a reply)"`
	Meetings            int    `json:"meetings" jsonschema:"gifts whose reported outcome is meeting_booked or meeting_held"`
	MeetingsHeld        int    `json:"meetingsHeld" jsonschema:"gifts whose reported outcome is meeting_held"`
	CommittedCents      int64  `json:"committedCents" jsonschema:"what the gifts that are not cancelled cost in USD cents, less what came back (refundedCents): every sent gift, and a declined or expired gift until it is refunded. Not revenue"`
	HeldCents           int64  `json:"heldCents" jsonschema:"the part of committedCents held for declined or expired gifts not refunded yet: it waits for a regift or a refund"`
	RefundedCents       int64  `json:"refundedCents" jsonschema:"what came back for refunded gifts in USD cents, to the balance or the card"`
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
	var out Results
	err := a.ReadTx(ctx, func(q *db.Queries) error {
		if _, err := q.CampaignGet(ctx, db.CampaignGetParams{WorkspaceID: p.WorkspaceID, ID: campaignID}); core.IsNoRows(err) {
			return core.FieldError(core.CodeNotFound, "id", "no campaign %s in this workspace", core.Clip(campaignID, 60))
		} else if err != nil {
			return core.Internal(err)
		}
		r, err := q.CampaignResults(ctx, db.CampaignResultsParams{WorkspaceID: p.WorkspaceID, CampaignID: campaignID})
		if err != nil {
			return core.Internal(err)
		}
		t, err := gift.CampaignTotals(ctx, q, p.WorkspaceID, campaignID)
		if err != nil {
			return err
		}
		out = Results{
			CampaignID: campaignID, TotalSends: t.Gifts, Cancelled: t.Cancelled, Sent: t.Sent, Delivered: int(r.Delivered),
			Declined: t.Declined, Expired: t.Expired, Refunded: t.Refunded,
			Replied: int(r.Replied), Meetings: int(r.Meetings), MeetingsHeld: int(r.MeetingsHeld),
			CommittedCents: t.CommittedCents, HeldCents: t.HeldCents, RefundedCents: t.RefundedCents,
			CostPerMeetingCents: costPerMeetingCents(t.CommittedCents, int(r.Meetings)),
			OutcomeSource:       OutcomeSourceTeamReported, MeetingDenominator: MeetingDenominatorBookedOrHeld,
		}
		return nil
	})
	return out, err
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
