package campaign

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// RepeatItem is a person on a campaign's roster already gifted by another
// campaign of the workspace.
type RepeatItem struct {
	RecipientID string `json:"recipientId" jsonschema:"the person on this campaign's roster"`
	Email       string `json:"email" jsonschema:"their email, or empty"`
	Name        string `json:"name" jsonschema:"their name, or empty"`
	PriorSendID string `json:"priorSendId" jsonschema:"the latest gift another campaign sent them"`
	Approved    bool   `json:"approved" jsonschema:"a signed-in owner or admin approved gifting them again"`
}

// RepeatApproval is what approve_campaign_repeats takes besides the campaign.
type RepeatApproval struct {
	RecipientIDs []string `json:"recipientIds" jsonschema:"the reviewed repeats to approve, from get_campaign_repeats" schema:"type=array,minItems=1,maxItems=500,items.maxLength=100"`
}

// CampaignRepeats lists the people on campaign id's roster who have no gift
// from it yet but were gifted by another campaign of the workspace, in the
// workspace's current mode: matched by email, sourceSystem+externalId or
// profileUrl. Cancelled gifts never reached anyone and do not count. It
// returns NOT_FOUND, or the codes of Authorize.
func (a *Service) CampaignRepeats(ctx context.Context, p core.Principal, id string) ([]RepeatItem, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return nil, err
	}
	var out []RepeatItem
	err := a.ReadTx(ctx, func(q *db.Queries) error {
		c, err := q.CampaignGet(ctx, db.CampaignGetParams{WorkspaceID: p.WorkspaceID, ID: id})
		if core.IsNoRows(err) {
			return campaignNotFound(id)
		}
		if err != nil {
			return core.Internal(err)
		}
		roster, err := loadRoster(ctx, q, c.ID)
		if err != nil {
			return err
		}
		out, err = repeatsOf(ctx, q, c.ID, roster, modeOf(p))
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
func (a *Service) ApproveRepeats(ctx context.Context, p core.Principal, id string, in RepeatApproval) ([]RepeatItem, error) {
	if err := core.Authorize(p, core.ActApprove, a.Config.ReviewURL(id)); err != nil {
		return nil, err
	}
	if len(in.RecipientIDs) == 0 || len(in.RecipientIDs) > MaxBulkPeople {
		return nil, core.Invalid("recipientIds", "must list 1-%d people", MaxBulkPeople)
	}
	var out []RepeatItem
	err := a.editRoster(ctx, p, id, nil, func(_ pgx.Tx, q *db.Queries, c campaignRecord, roster rosterView) error {
		repeats, err := repeatsOf(ctx, q, c.ID, roster, modeOf(p))
		if err != nil {
			return err
		}
		isRepeat := map[string]bool{}
		for _, r := range repeats {
			isRepeat[r.RecipientID] = true
		}
		onRoster := map[string]bool{}
		for _, pp := range roster.people {
			onRoster[pp.id] = true
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
		roster, err = loadRoster(ctx, q, c.ID)
		if err != nil {
			return err
		}
		out, err = repeatsOf(ctx, q, c.ID, roster, modeOf(p))
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// repeatsOf matches the roster against other campaigns' gifts in mode.
func repeatsOf(ctx context.Context, q *db.Queries, campaignID string, roster rosterView, mode core.Mode) ([]RepeatItem, error) {
	rows, err := q.SendPriorForCampaigns(ctx, db.SendPriorForCampaignsParams{Mode: string(mode), CampaignIds: []string{campaignID}})
	if err != nil {
		return nil, core.Internal(err)
	}
	prior := make(map[string]string, len(rows))
	for _, r := range rows {
		prior[r.RecipientID] = r.SendID
	}
	out := []RepeatItem{}
	for _, pp := range roster.people {
		if send, ok := prior[pp.id]; ok {
			out = append(out, RepeatItem{RecipientID: pp.id, Email: pp.Email, Name: pp.Name, PriorSendID: send, Approved: pp.repeatApprovedAt != nil})
		}
	}
	return out, nil
}

// modeOf is the principal's workspace mode, test when unknown.
func modeOf(p core.Principal) core.Mode {
	if p.Mode == "" {
		return core.ModeTest
	}
	return p.Mode
}
