package giftlink

import (
	"context"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// CampaignLinks returns the links of campaign campaignID's gifts, oldest
// gift first (list_campaign_gift_links), each with its URL while active. It
// returns NOT_FOUND naming id for a campaign of another workspace or none,
// or the codes of Authorize (ActReadGiftLinks).
func (s *Service) CampaignLinks(ctx context.Context, p core.Principal, campaignID string) ([]Link, error) {
	if err := core.Authorize(p, core.ActReadGiftLinks, ""); err != nil {
		return nil, err
	}
	var views []linkView
	err := s.ReadTx(ctx, func(q *db.Queries) error {
		c, err := getCampaign(ctx, q, p.WorkspaceID, campaignID)
		if err != nil {
			return err
		}
		rows, err := q.GiftLinkListByCampaign(ctx, db.GiftLinkListByCampaignParams{WorkspaceID: p.WorkspaceID, CampaignID: c.ID})
		if err != nil {
			return core.Internal(err)
		}
		refunds, err := latestRefunds(ctx, q, p.WorkspaceID, c.ID)
		if err != nil {
			return err
		}
		busy, err := checkoutBusy(ctx, q, c.WorkspaceID, c.ID, s.Clock.Now())
		if err != nil {
			return err
		}
		for _, r := range rows {
			views = append(views, linkView{link: r.GiftLink, send: r.Send, campaign: c, refund: refunds[r.Send.ID], checkout: busy})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	links := make([]Link, len(views))
	for i, v := range views {
		links[i] = v.item(s.Config, now)
	}
	return links, nil
}

// SendLink returns the link of gift sendID. It returns NOT_FOUND naming id
// for a gift of another workspace, a gift without a link (its address was
// known) or none, or the codes of Authorize (ActReadGiftLinks).
func (s *Service) SendLink(ctx context.Context, p core.Principal, sendID string) (Link, error) {
	if err := core.Authorize(p, core.ActReadGiftLinks, ""); err != nil {
		return Link{}, err
	}
	var v linkView
	err := s.ReadTx(ctx, func(q *db.Queries) error {
		var err error
		if v, err = getView(ctx, q, p.WorkspaceID, sendID); err != nil {
			return err
		}
		v.checkout, err = checkoutBusy(ctx, q, v.campaign.WorkspaceID, v.campaign.ID, s.Clock.Now())
		return err
	})
	if err != nil {
		return Link{}, err
	}
	return v.item(s.Config, s.Clock.Now()), nil
}

// getCampaign reads a workspace's campaign, or NOT_FOUND naming id.
func getCampaign(ctx context.Context, q *db.Queries, workspaceID, campaignID string) (db.Campaign, error) {
	c, err := q.CampaignGet(ctx, db.CampaignGetParams{WorkspaceID: workspaceID, ID: campaignID})
	if core.IsNoRows(err) {
		return db.Campaign{}, core.FieldError(core.CodeNotFound, "id", "no campaign %s in this workspace", campaignID)
	}
	if err != nil {
		return db.Campaign{}, core.Internal(err)
	}
	return c, nil
}

// getView reads a workspace's gift with its link and campaign, or
// NOT_FOUND naming id.
func getView(ctx context.Context, q *db.Queries, workspaceID, sendID string) (linkView, error) {
	r, err := q.GiftLinkGet(ctx, db.GiftLinkGetParams{WorkspaceID: workspaceID, SendID: sendID})
	if core.IsNoRows(err) {
		return linkView{}, core.FieldError(core.CodeNotFound, "id",
			"no gift link for %s in this workspace: the gift does not exist or its sender supplied the address", sendID)
	}
	if err != nil {
		return linkView{}, core.Internal(err)
	}
	c, err := getCampaign(ctx, q, workspaceID, r.Send.CampaignID)
	if err != nil {
		return linkView{}, core.Internal(err)
	}
	return withRefund(ctx, q, linkView{link: r.GiftLink, send: r.Send, campaign: c})
}

// lockView reads gift sendID of workspaceID with its link and campaign,
// gift and link locked for a change, or NOT_FOUND naming field.
func lockView(ctx context.Context, q *db.Queries, workspaceID, sendID, field string) (linkView, error) {
	r, err := q.GiftLinkGetForUpdate(ctx, sendID)
	if core.IsNoRows(err) || (err == nil && r.Send.WorkspaceID != workspaceID) {
		return linkView{}, core.FieldError(core.CodeNotFound, field,
			"no gift link for %s in this workspace: the gift does not exist or its sender supplied the address", sendID)
	}
	if err != nil {
		return linkView{}, core.Internal(err)
	}
	c, err := getCampaign(ctx, q, workspaceID, r.Send.CampaignID)
	if err != nil {
		return linkView{}, core.Internal(err)
	}
	return withRefund(ctx, q, linkView{link: r.GiftLink, send: r.Send, campaign: c})
}
