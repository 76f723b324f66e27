package giftlink

import (
	"encoding/json"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// LinkState is where a link stands: active (waits for its recipient), used
// (the recipient confirmed an address or declined), revoked (stopped by the
// sender) or expired (14 days passed unused).
type LinkState string

// The link states.
const (
	LinkActive  LinkState = "active"
	LinkUsed    LinkState = "used"
	LinkRevoked LinkState = "revoked"
	LinkExpired LinkState = "expired"
)

// Branding is who the link says the gift is from: complete or not at all.
// An empty contactEmail or logoAssetId hides it.
type Branding struct {
	SenderName    string `json:"senderName" jsonschema:"the sender's name shown to the recipient (1-200 characters)"`
	SenderCompany string `json:"senderCompany" jsonschema:"the sending company (1-200 characters)"`
	ContactEmail  string `json:"contactEmail" jsonschema:"a contact address shown to the recipient; empty hides it"`
	LogoAssetID   string `json:"logoAssetId" jsonschema:"a ready PNG, JPEG or WebP asset of this workspace; empty hides the logo"`
}

// Link is a gift-link item: the link of one gift, as list_campaign_gift_links
// and every link write return it.
type Link struct {
	SendID      string          `json:"sendId" jsonschema:"the gift (send_...)"`
	RecipientID string          `json:"recipientId" jsonschema:"the roster person"`
	Status      gift.SendStatus `json:"status" jsonschema:"the gift's status"`
	Mode        core.Mode       `json:"mode" jsonschema:"test or live; a test gift's link must not reach a real prospect" schema:"enum=test|live"`
	// RecipientName is who the link is for now (a regift changes it).
	RecipientName string    `json:"recipientName,omitempty" jsonschema:"who the link is for"`
	LinkState     LinkState `json:"linkState" jsonschema:"active (waits for its recipient), used (address confirmed or declined), revoked or expired" schema:"enum=active|used|revoked|expired"`
	// URL is the link while it is active; empty otherwise.
	URL       string    `json:"url,omitempty" jsonschema:"the private link to send through your own tools; present only while active"`
	ExpiresAt time.Time `json:"expiresAt" jsonschema:"when the link stops working (14 days after its creation or regift)"`
	// LandingMessage is the message template the page shows ({{firstName}},
	// {{name}} and {{company}} filled in); the default when none was saved.
	LandingMessage string `json:"landingMessage" jsonschema:"the page's message, placeholders unfilled; the campaign's welcome (or the default) when none was saved"`
	MessageVersion int    `json:"messageVersion" jsonschema:"advances on every message or branding change; pass as expectedMessageVersion"`
	Generation     int    `json:"generation" jsonschema:"advances on regift; pass with every change"`
	SenderName     string `json:"senderName" jsonschema:"the sender shown on the page"`
	SenderCompany  string `json:"senderCompany" jsonschema:"the company shown on the page"`
	ContactEmail   string `json:"contactEmail" jsonschema:"the contact address shown, or empty"`
	LogoAssetID    string `json:"logoAssetId" jsonschema:"the logo shown, or empty"`
	ValueCents     int64  `json:"valueCents" jsonschema:"what the gift cost, USD cents"`
	CanRegift      bool   `json:"canRegift" jsonschema:"true when regift_gift_link may send this gift to someone else: an unused gift, or a card-paid gift its recipient declined (regifted only by a signed-in owner or admin, whose money then goes to the new person)"`
	// CanRequestRefund: an unused link that can no longer be used (revoked
	// or expired) of a gift that was paid.
	CanRequestRefund bool `json:"canRequestRefund" jsonschema:"true when a signed-in owner or admin may ask staff to refund this unused gift"`
	// RefundState is the progress of the gift's latest refund request
	// (RefundState), none when there is none.
	RefundState RefundState `json:"refundState" jsonschema:"none, requested, processing, refunded or rejected; requested and processing do not mean refunded" schema:"enum=none|requested|processing|refunded|rejected"`
}

// DefaultLandingMessage is the page's message when neither the link nor the
// campaign (customization.giftLinkWelcome) says one.
const DefaultLandingMessage = "Hi {{firstName}}, we picked out a gift for you. Tell us where to send it, or decline it below."

// linkView is a link with its gift and campaign, read in one place.
type linkView struct {
	link     db.GiftLink
	send     db.Send
	campaign db.Campaign
	// refund is the state of the gift's latest refund request, or "" when
	// there is none.
	refund RefundState
	// checkout is CHECKOUT_LOCKED while the campaign has a checkout in
	// progress (noCheckoutInProgress), for the lists that show canRegift.
	checkout error
}

// state is the link's state at now: an active link past its end is
// expired even before the sweep moves its gift.
func (v linkView) state(now time.Time) LinkState {
	return linkStateAt(v.link.State, v.link.ExpiresAt, v.send.Status, now)
}

// branding is the link's branding: its own, or the campaign's sender and
// customization.
func (v linkView) branding() Branding {
	if len(v.link.Branding) > 0 {
		var b Branding
		if json.Unmarshal(v.link.Branding, &b) == nil {
			return b
		}
	}
	var cust map[string]string
	_ = json.Unmarshal(v.campaign.Customization, &cust)
	return Branding{
		SenderName: v.campaign.SenderName, SenderCompany: v.campaign.SenderCompany,
		ContactEmail: cust[campaign.CustomizationContactEmail], LogoAssetID: cust[campaign.CustomizationLogoAssetID],
	}
}

// landingMessage is the message template the page shows.
func (v linkView) landingMessage() string {
	if v.link.Message != "" {
		return v.link.Message
	}
	var cust map[string]string
	_ = json.Unmarshal(v.campaign.Customization, &cust)
	if w := cust[campaign.CustomizationWelcome]; w != "" {
		return w
	}
	return DefaultLandingMessage
}

// recipient is who the link is for now.
func (v linkView) recipient() gift.GiftRecipient {
	var r gift.GiftRecipient
	_ = json.Unmarshal(v.send.Recipient, &r)
	return r
}

// item is the gift-link item of v at now, with its URL when active.
func (v linkView) item(cfg core.Config, now time.Time) Link {
	st := v.state(now)
	b := v.branding()
	l := Link{
		SendID: v.send.ID, RecipientID: v.send.RecipientID, Status: gift.SendStatus(v.send.Status),
		Mode: core.Mode(v.send.Mode), RecipientName: v.recipient().Name, LinkState: st, ExpiresAt: v.link.ExpiresAt,
		LandingMessage: v.landingMessage(), MessageVersion: int(v.link.MessageVersion), Generation: int(v.link.Generation),
		SenderName: b.SenderName, SenderCompany: b.SenderCompany, ContactEmail: b.ContactEmail, LogoAssetID: b.LogoAssetID,
		ValueCents: v.send.TotalCents, RefundState: RefundNone,
	}
	if v.refund != "" {
		l.RefundState = v.refund
	}
	if st == LinkActive {
		l.URL = cfg.GiftLinkURL(cfg.GiftLinkToken(v.send.ID, v.link.Generation, v.link.TokenSalt))
	}
	l.CanRegift = v.canRegift(now) == nil
	l.CanRequestRefund = v.canRequestRefund(now) == nil
	return l
}

// canRegift says why v cannot be regifted at now, or nil: the gift must be
// unused (awaiting its address, the link not used), its campaign active or
// paused, the link not expired, no checkout of the campaign in progress
// (v.checkout, read for lists; regift itself asks noCheckoutInProgress
// under its lock). A revoked link can be regifted.
func (v linkView) canRegift(now time.Time) error {
	declined := gift.CanRegiftDeclined(gift.SendStatus(v.send.Status), gift.FundedBy(v.send.FundedBy), v.send.AddressConfirmedAt != nil)
	if !declined && v.state(now) == LinkExpired {
		return core.FieldError(core.CodeInvalidRequestState, "sendId",
			"the link of gift %s expired on %s; an expired gift cannot be regifted", v.send.ID, v.link.ExpiresAt.Format(time.RFC3339))
	}
	if !declined && (v.send.Status != string(gift.SendAwaitingAddress) || v.link.State == string(LinkUsed)) {
		return core.FieldError(core.CodeInvalidRequestState, "sendId",
			"gift %s is %s and its link was used; only an unused gift, or a card-paid gift its recipient declined, can be regifted", v.send.ID, v.send.Status)
	}
	if v.refund.open() || v.refund == RefundRefunded {
		return core.FieldError(core.CodeInvalidRequestState, "sendId",
			"gift %s has a refund %s; a gift being refunded cannot be regifted", v.send.ID, v.refund)
	}
	if s := v.campaign.Status; s != string(campaign.StatusActive) && s != string(campaign.StatusPaused) {
		return core.FieldError(core.CodeInvalidRequestState, "sendId",
			"campaign %s is %s; regift needs an active or paused campaign", v.campaign.ID, s)
	}
	return v.checkout
}
