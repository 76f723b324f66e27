// Package giftlink is a gift's private link: the page where its recipient
// confirms an address or declines, the sender's message and branding on it,
// regift and revoke, the campaign's link list and distribution records, and
// the sweep that ends links after 14 days
// (docs/decisions/0066-gift-link-tokens-and-states.md). The link itself is
// created with its gift (core/campaign); its token is derived from the link
// key (core.Config.GiftLinkToken) and only its hash is stored.
package giftlink

import (
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/gift"
)

// Service keeps gift links.
type Service struct {
	*core.Kernel
	// Campaigns holds the campaign rules a link follows (its status, note
	// and branding) and the checkouts that block a regift.
	Campaigns *campaign.Service
	// Gifts moves gifts (a confirmed address makes a gift ready, a decline
	// ends it) in the link's transaction, and refunds them.
	Gifts *gift.Service
	// Catalog names and pictures the gift on the recipient's page.
	Catalog *catalog.Store
	// CardRefunder refunds card-paid gifts whose refund staff approved
	// (DecideRefund); nil until a payment processor is wired.
	CardRefunder CardRefunder
}
