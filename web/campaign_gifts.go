package web

import (
	"context"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
)

// campaignGiftsShown is how many gifts the campaign page lists, newest
// first: one page of list_sends. A longer list says how to see the rest.
const campaignGiftsShown = gift.MaxGiftLimit

// giftRow is one gift of a list with its link (nil when it has none).
type giftRow struct {
	Gift gift.Gift
	Link *giftlink.Link
}

// StatusName is the gift's status in words.
func (r giftRow) StatusName() string { return giftStatusName(r.Gift.Status) }

// StatusBadge is the class of the status badge.
func (r giftRow) StatusBadge() string { return giftStatusBadge(r.Gift.Status) }

// LinkState is the link's state in words.
func (r giftRow) LinkState() string { return linkStateText(r.Gift, r.Link) }

// Tracking is the carrier and tracking number, or "".
func (r giftRow) Tracking() string { return trackingText(r.Gift) }

// loadCampaignGifts reads the newest campaignGiftsShown gifts of campaign
// id with their links, and whether it has more.
func (h *handler) loadCampaignGifts(ctx context.Context, p core.Principal, id string) ([]giftRow, bool, error) {
	page, err := h.app.Gifts.List(ctx, p, gift.GiftFilter{CampaignID: id, Limit: campaignGiftsShown})
	if err != nil {
		return nil, false, err
	}
	links := map[string]*giftlink.Link{}
	if len(page.Items) > 0 {
		list, err := h.app.GiftLinks.CampaignLinks(ctx, p, id)
		if err != nil {
			return nil, false, err
		}
		for i := range list {
			links[list[i].SendID] = &list[i]
		}
	}
	rows := make([]giftRow, len(page.Items))
	for i, g := range page.Items {
		rows[i] = giftRow{Gift: g, Link: links[g.ID]}
	}
	return rows, page.NextCursor != nil, nil
}
