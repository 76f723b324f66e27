package billing

import (
	"context"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/sql/db"
)

// CampaignCheckout returns campaign campaignID's newest checkout in p's
// mode, or nil when it has none, for the launch page: launch is any
// signed-in person's (ActActivate), so reading the checkout that drives it
// is too. An unpaid checkout whose time is up reads as expired. It returns
// the codes of Authorize (ActActivate) or INTERNAL_ERROR.
func (a *Service) CampaignCheckout(ctx context.Context, p core.Principal, campaignID string) (*Checkout, error) {
	if err := core.Authorize(p, core.ActActivate, a.LaunchURL(campaignID)); err != nil {
		return nil, err
	}
	rows, err := db.New(a.DB).CheckoutList(ctx, db.CheckoutListParams{
		WorkspaceID: p.WorkspaceID, Mode: string(p.Mode), CampaignID: &campaignID,
		Before: time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), RowLimit: 1,
	})
	if err != nil {
		return nil, core.Internal(err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	c := a.readCheckout(rows[0])
	return &c, nil
}

// readCheckout is stored checkout r as a list shows it: an unpaid one whose
// time is up by Giftwell's clock reads as expired.
func (a *Service) readCheckout(r db.Checkout) Checkout {
	c := a.checkoutFromRow(r)
	if campaign.CheckoutLapsed(r.State, r.ExpiresAt, a.Clock.Now()) {
		c.State, c.URL = CheckoutExpired, ""
	}
	return c
}
