package campaign

import (
	"context"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// ListCampaigns returns the workspace's campaigns, newest first, without
// their rosters (recipientCount says how many people each holds). mode
// filters by kind when not empty. It returns VALIDATION_ERROR naming mode
// for an unknown kind, or the codes of Authorize.
func (a *Service) ListCampaigns(ctx context.Context, p core.Principal, mode CampaignMode) ([]Campaign, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return nil, err
	}
	var filter *string
	if mode != "" {
		if !mode.Valid() {
			return nil, core.Invalid("mode", "must be one of always_on, batch, single")
		}
		m := string(mode)
		filter = &m
	}
	var out []Campaign
	err := a.ReadTx(ctx, func(q *db.Queries) error {
		rows, err := q.CampaignList(ctx, db.CampaignListParams{WorkspaceID: p.WorkspaceID, Mode: filter})
		if err != nil {
			return core.Internal(err)
		}
		counts, err := q.RecipientCountsByWorkspace(ctx, p.WorkspaceID)
		if err != nil {
			return core.Internal(err)
		}
		people := make(map[string]int, len(counts))
		for _, c := range counts {
			people[c.CampaignID] = int(c.People)
		}
		sent, err := q.SendCommitmentsByWorkspace(ctx, p.WorkspaceID)
		if err != nil {
			return core.Internal(err)
		}
		com := make(map[string]commitments, len(sent))
		for _, s := range sent {
			com[s.CampaignID] = commitments{SentCount: int(s.SentCount), SpentCents: s.SpentCents}
		}
		out = make([]Campaign, 0, len(rows))
		for _, row := range rows {
			c, err := RecordFromRow(row)
			if err != nil {
				return core.Internal(err)
			}
			out = append(out, a.campaignOut(c, nil, people[c.ID], com[c.ID]))
		}
		return nil
	})
	return out, err
}

// LookupCampaign returns campaign id in one read, without its roster and
// its spending (Recipients, RecipientCount, SpentCents and SentCount stay
// empty), for a caller that needs only the campaign's own fields: its
// name, kind, status or gift. It returns NOT_FOUND naming id, as
// GetCampaign does, or the codes of Authorize.
func (a *Service) LookupCampaign(ctx context.Context, p core.Principal, id string) (Campaign, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return Campaign{}, err
	}
	row, err := db.New(a.DB).CampaignGet(ctx, db.CampaignGetParams{WorkspaceID: p.WorkspaceID, ID: id})
	if core.IsNoRows(err) {
		return Campaign{}, NotFound(id)
	}
	if err != nil {
		return Campaign{}, core.Internal(err)
	}
	c, err := RecordFromRow(row)
	if err != nil {
		return Campaign{}, core.Internal(err)
	}
	return a.campaignOut(c, nil, 0, commitments{}), nil
}

// GetCampaign returns campaign id with its roster (each person's note
// resolved) and policyVersion. It returns NOT_FOUND naming id for a
// campaign that is not in p's workspace, or the codes of Authorize.
func (a *Service) GetCampaign(ctx context.Context, p core.Principal, id string) (Campaign, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return Campaign{}, err
	}
	var out Campaign
	err := a.ReadTx(ctx, func(q *db.Queries) error {
		var err error
		out, err = a.CampaignTx(ctx, q, p.WorkspaceID, id)
		return err
	})
	return out, err
}
