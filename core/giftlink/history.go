package giftlink

import (
	"context"
	"encoding/json"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// maxHistory is how many changes get_campaign_invitations returns.
const maxHistory = 200

// Invitations is a campaign's gift-link settings and their history
// (get_campaign_invitations): what a new link shows, and every message,
// branding, regift and revoke change of its links, newest first.
type Invitations struct {
	CampaignID string `json:"campaignId" jsonschema:"the campaign"`
	// Defaults is what a link shows until its own message or branding is
	// saved.
	Defaults LinkDefaults `json:"defaults" jsonschema:"what a link shows until its own message or branding is saved"`
	History  []Change     `json:"history" jsonschema:"the latest changes of the campaign's links, newest first (up to 200)"`
}

// LinkDefaults is what a campaign's links show by default: the campaign's
// sender and customization.
type LinkDefaults struct {
	LandingMessage string `json:"landingMessage" jsonschema:"customization.giftLinkWelcome, or the service's default"`
	Branding
}

// Change is one change of a link.
type Change struct {
	SendID         string    `json:"sendId" jsonschema:"the gift"`
	Change         string    `json:"change" jsonschema:"message (message or branding), regift or revoke" schema:"enum=message|regift|revoke"`
	Generation     int       `json:"generation" jsonschema:"the link's generation after the change"`
	MessageVersion int       `json:"messageVersion" jsonschema:"the link's messageVersion after the change"`
	LandingMessage string    `json:"landingMessage" jsonschema:"the saved message; empty means the default"`
	Branding       *Branding `json:"branding,omitempty" jsonschema:"the saved branding; absent means the campaign's"`
	ChangedBy      string    `json:"changedBy,omitempty" jsonschema:"the user whose key or session made it"`
	CreatedAt      time.Time `json:"createdAt" jsonschema:"when"`
}

// CampaignInvitations returns campaign campaignID's link defaults and the
// history of its links' messages and branding. It returns NOT_FOUND naming
// id or the codes of Authorize (ActRead).
func (s *Service) CampaignInvitations(ctx context.Context, p core.Principal, campaignID string) (Invitations, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return Invitations{}, err
	}
	out := Invitations{CampaignID: campaignID, History: []Change{}}
	err := s.ReadTx(ctx, func(q *db.Queries) error {
		c, err := getCampaign(ctx, q, p.WorkspaceID, campaignID)
		if err != nil {
			return err
		}
		v := linkView{campaign: c}
		out.Defaults = LinkDefaults{LandingMessage: v.landingMessage(), Branding: v.branding()}
		rows, err := q.GiftLinkChangeListByCampaign(ctx, db.GiftLinkChangeListByCampaignParams{
			WorkspaceID: p.WorkspaceID, CampaignID: c.ID, MaxRows: maxHistory,
		})
		if err != nil {
			return core.Internal(err)
		}
		for _, r := range rows {
			ch := Change{
				SendID: r.SendID, Change: r.Kind, Generation: int(r.Generation), MessageVersion: int(r.MessageVersion),
				LandingMessage: r.Message, ChangedBy: r.ChangedBy, CreatedAt: r.CreatedAt,
			}
			if len(r.Branding) > 0 {
				var b Branding
				if json.Unmarshal(r.Branding, &b) == nil {
					ch.Branding = &b
				}
			}
			out.History = append(out.History, ch)
		}
		return nil
	})
	return out, err
}
