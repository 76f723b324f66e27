package campaign

import (
	"context"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// RepeatItem is a person on a campaign's roster already gifted by another
// campaign of the workspace.
type RepeatItem struct {
	RecipientID string `json:"recipientId" jsonschema:"the person on this campaign's roster"`
	Email       string `json:"email,omitempty" jsonschema:"their email; absent without one"`
	Name        string `json:"name,omitempty" jsonschema:"their name; absent without one"`
	PriorSendID string `json:"priorSendId" jsonschema:"the latest gift another campaign sent them"`
	Approved    bool   `json:"approved" jsonschema:"a signed-in owner or admin approved gifting them again"`
}

// RepeatsOf matches the roster against other campaigns' gifts in mode.
func RepeatsOf(ctx context.Context, q *db.Queries, campaignID string, roster Roster, mode core.Mode) ([]RepeatItem, error) {
	rows, err := q.SendPriorForCampaigns(ctx, db.SendPriorForCampaignsParams{Mode: string(mode), CampaignIds: []string{campaignID}})
	if err != nil {
		return nil, core.Internal(err)
	}
	prior := make(map[string]string, len(rows))
	for _, r := range rows {
		prior[r.RecipientID] = r.SendID
	}
	out := []RepeatItem{}
	for _, pp := range roster.People {
		if send, ok := prior[pp.ID]; ok {
			out = append(out, RepeatItem{RecipientID: pp.ID, Email: pp.Email, Name: pp.Name, PriorSendID: send, Approved: pp.RepeatApprovedAt != nil})
		}
	}
	return out, nil
}

// ModeOf is the principal's workspace mode, test when unknown.
func ModeOf(p core.Principal) core.Mode {
	if p.Mode == "" {
		return core.ModeTest
	}
	return p.Mode
}
