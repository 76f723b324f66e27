package approval

import (
	"context"
	"fmt"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/sql/db"
	"github.com/jackc/pgx/v5"
)

// RepeatApproval is what approve_campaign_repeats takes besides the campaign.
type RepeatApproval struct {
	RecipientIDs []string `json:"recipientIds" jsonschema:"the reviewed repeats to approve, from get_campaign_repeats" schema:"type=array,minItems=1,maxItems=500,items.maxLength=100"`
}

// CampaignRepeats lists the people on campaign id's roster who have no gift
// from it yet but were gifted by another campaign of the workspace, in the
// workspace's current mode: matched by email, SourceSystem+externalId or
// profileUrl. Cancelled gifts never reached anyone and do not count. It
// returns NOT_FOUND, or the codes of Authorize.
func (a *Service) CampaignRepeats(ctx context.Context, p core.Principal, id string) ([]campaign.RepeatItem, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return nil, err
	}
	var out []campaign.RepeatItem
	err := a.ReadTx(ctx, func(q *db.Queries) error {
		c, err := q.CampaignGet(ctx, db.CampaignGetParams{WorkspaceID: p.WorkspaceID, ID: id})
		if core.IsNoRows(err) {
			return campaign.NotFound(id)
		}
		if err != nil {
			return core.Internal(err)
		}
		roster, err := campaign.LoadRoster(ctx, q, c.ID)
		if err != nil {
			return err
		}
		out, err = campaign.RepeatsOf(ctx, q, c.ID, roster, campaign.ModeOf(p))
		return err
	})
	return out, err
}

// ApproveRepeats marks reviewed repeats of campaign id as approved: only a
// signed-in owner or admin does this. Each ID must be a repeat listed by
// CampaignRepeats. It returns the repeats after the approval, or NOT_FOUND
// (the campaign, or an ID not on its roster, naming recipientIds[i]),
// VALIDATION_ERROR (a person who is not a repeat), DUPLICATE_RECIPIENT,
// CAMPAIGN_COMPLETED, or the codes of Authorize (HUMAN_APPROVAL_REQUIRED
// for keys and connections, TEAM_MANAGER_REQUIRED for members).
func (a *Service) ApproveRepeats(ctx context.Context, p core.Principal, id string, in RepeatApproval) ([]campaign.RepeatItem, error) {
	if err := core.Authorize(p, core.ActApprove, a.Config.ReviewURL(id)); err != nil {
		return nil, err
	}
	if len(in.RecipientIDs) == 0 || len(in.RecipientIDs) > campaign.MaxBulkPeople {
		return nil, core.Invalid("recipientIds", "must list 1-%d people", campaign.MaxBulkPeople)
	}
	var out []campaign.RepeatItem
	err := a.Campaigns.EditRoster(ctx, p, id, nil, func(_ pgx.Tx, q *db.Queries, c campaign.Record, roster campaign.Roster) error {
		repeats, err := campaign.RepeatsOf(ctx, q, c.ID, roster, campaign.ModeOf(p))
		if err != nil {
			return err
		}
		isRepeat := map[string]bool{}
		for _, r := range repeats {
			isRepeat[r.RecipientID] = true
		}
		onRoster := map[string]bool{}
		for _, pp := range roster.People {
			onRoster[pp.ID] = true
		}
		seen := map[string]int{}
		ids := make([]string, 0, len(in.RecipientIDs))
		for i, rid := range in.RecipientIDs {
			field := fmt.Sprintf("recipientIds[%d]", i)
			rid = strings.TrimSpace(rid)
			switch j, dup := seen[rid]; {
			case !onRoster[rid]:
				return core.FieldError(core.CodeNotFound, field, "%s is not on this campaign's roster", core.Clip(rid, 60))
			case dup:
				return core.FieldError(core.CodeDuplicateRecipient, field, "repeats recipientIds[%d]", j)
			case !isRepeat[rid]:
				return core.Invalid(field, "%s is not a repeat: get_campaign_repeats lists the people gifted by another campaign", rid)
			}
			seen[rid] = i
			ids = append(ids, rid)
		}
		if _, err := q.RecipientApproveRepeats(ctx, db.RecipientApproveRepeatsParams{
			ApprovedBy: p.UserID, Now: a.Clock.Now(), CampaignID: c.ID, Ids: ids,
		}); err != nil {
			return core.Internal(err)
		}
		roster, err = campaign.LoadRoster(ctx, q, c.ID)
		if err != nil {
			return err
		}
		out, err = campaign.RepeatsOf(ctx, q, c.ID, roster, campaign.ModeOf(p))
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
