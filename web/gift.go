package web

import (
	"context"
	"net/http"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
)

// giftData is the content of one gift's page.
type giftData struct {
	giftRow
	// Campaign is the gift's campaign.
	Campaign campaign.Campaign
	// Product is the catalog gift; nil when the catalog no longer has it.
	Product *catalog.Product
	// Timeline is what happened to the gift, oldest first.
	Timeline []timelineLine
	// MoreEvents is set when the gift has more events than Timeline shows.
	MoreEvents bool
	// CanPay is set when the viewer may pay and so ask for a refund or
	// regift a declined gift (a signed-in owner or admin: core.ActPay,
	// which RequestRefund and Regift check).
	CanPay bool
	// Money is where the gift's money is (core's gift.Money).
	Money gift.Money
}

// timelineLine is one event of a gift's timeline.
type timelineLine struct {
	At   time.Time
	Text string
}

// ActiveLinkURL is the gift's link while it is active, for the copy
// button; "" otherwise. Any member may read links (read_gift_links).
func (d giftData) ActiveLinkURL() string {
	if d.Link == nil || d.Link.LinkState != giftlink.LinkActive {
		return ""
	}
	return d.Link.URL
}

// Attribution are the gift's attribution values as "name: value" lines.
func (d giftData) Attribution() []string { return attributionLines(d.Gift.Attribution) }

// SenderAddress is the address the sender supplied, on one line; "" when
// the recipient confirms their own (which no page shows).
func (d giftData) SenderAddress() string {
	r := d.Gift.Recipient
	if r.AddressMode != gift.AddressKnown {
		return ""
	}
	return joinNonEmpty(", ", r.Address, r.City, joinNonEmpty(" ", r.State, r.Zip))
}

// gift shows one gift of the workspace (GET /gifts/{id}): its facts, its
// link and the timeline of its events. Another workspace's gift is 404.
func (h *handler) gift(w http.ResponseWriter, r *http.Request, s session) {
	h.show(w, r, s, "gift", h.giftLoader(r.PathValue("id")))
}

// giftLoader loads the page of gift id: for the page itself, and for a
// form on it that failed.
func (h *handler) giftLoader(id string) pageLoader {
	return func(ctx context.Context, s session) (view, error) {
		d, err := h.loadGiftPage(ctx, s.Principal, id)
		if err != nil {
			return view{}, err
		}
		return view{Nav: "campaigns", Data: d}, nil
	}
}

// loadGiftPage reads gift id, its campaign, product, link and events for p.
func (h *handler) loadGiftPage(ctx context.Context, p core.Principal, id string) (giftData, error) {
	g, err := h.app.Gifts.Get(ctx, p, id)
	if err != nil {
		return giftData{}, err
	}
	d := giftData{giftRow: giftRow{Gift: g}, CanPay: core.Authorize(p, core.ActPay, "") == nil}
	if d.Campaign, err = h.app.Campaigns.GetCampaign(ctx, p, g.CampaignID); err != nil {
		return giftData{}, err
	}
	if g.GiftLinkGeneration > 0 {
		l, err := h.app.GiftLinks.SendLink(ctx, p, id)
		switch {
		case err == nil:
			d.Link = &l
		case core.ErrorCode(err) != core.CodeNotFound:
			return giftData{}, err
		}
	}
	if d.Money, err = h.app.Gifts.GiftMoney(ctx, p, id); err != nil {
		return giftData{}, err
	}
	if prod, err := h.app.Catalog.Get(ctx, g.ProductID); err == nil {
		d.Product = &prod
	} else if core.ErrorCode(err) != core.CodeNotFound {
		return giftData{}, err
	}
	tl, err := h.app.Tracking.GiftEvents(ctx, p, id)
	if err != nil {
		return giftData{}, err
	}
	d.MoreEvents = tl.More
	for _, e := range tl.Events {
		d.Timeline = append(d.Timeline, timelineLine{At: e.CreatedAt, Text: eventSentence(e)})
	}
	return d, nil
}
