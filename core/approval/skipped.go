package approval

import (
	"context"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/sql/db"
)

// SkippedPeople returns the people an owner or admin skipped in p's
// workspace, or on campaign campaignID when it is not empty, newest skip
// first (GET /queue/skipped). Skipped people are listed whatever their
// playbook's status: they stay skipped (and a new add of them is
// RECIPIENT_SKIPPED) until unskipped. It returns NOT_FOUND naming
// campaignId for a campaign outside the workspace, the codes of Authorize
// (ActReadQueueAndBalance), or INTERNAL_ERROR.
func (a *Service) SkippedPeople(ctx context.Context, p core.Principal, campaignID string) ([]SkippedItem, error) {
	if err := core.Authorize(p, core.ActReadQueueAndBalance, a.queuePage(campaignID)); err != nil {
		return nil, err
	}
	var out []SkippedItem
	err := a.ReadTx(ctx, func(q *db.Queries) error {
		var filter *string
		if campaignID != "" {
			if err := queueCampaignExists(ctx, q, p.WorkspaceID, campaignID); err != nil {
				return err
			}
			filter = &campaignID
		}
		rows, err := q.RecipientListSkipped(ctx, db.RecipientListSkippedParams{WorkspaceID: p.WorkspaceID, CampaignID: filter})
		if err != nil {
			return core.Internal(err)
		}
		out = make([]SkippedItem, 0, len(rows))
		for _, r := range rows {
			who := campaign.PersonFields{Name: r.Name, Email: r.Email, ProfileURL: r.ProfileUrl, SourceSystem: r.SourceSystem, ExternalID: r.ExternalID}
			out = append(out, SkippedItem{
				CampaignID: r.CampaignID, CampaignName: r.CampaignName, RecipientID: r.ID,
				Recipient: QueuePerson{Name: who.DisplayName(), Company: r.Company, Title: r.Title},
				Reason:    r.SkipReason, SkippedAt: r.SkippedAt.UTC(),
			})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
