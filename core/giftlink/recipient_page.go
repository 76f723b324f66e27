package giftlink

import (
	"context"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
)

// PageState is what the recipient's page at a gift link shows.
type PageState string

// The page states. Only PageOpen shows the gift and the form; PageConfirmed
// and PageDeclined answer the recipient's own confirm or decline; every
// other state is a plain page that reveals neither the gift nor an address.
const (
	// PageOpen: the link is active and its gift waits for an address.
	PageOpen PageState = "open"
	// PageConfirmed: the recipient just confirmed an address.
	PageConfirmed PageState = "confirmed"
	// PageDeclined: the recipient just declined the gift.
	PageDeclined PageState = "declined"
	// PageUsed: the link was used (an address confirmed or the gift declined).
	PageUsed PageState = "used"
	// PageRevoked: the sender stopped the link.
	PageRevoked PageState = "revoked"
	// PageExpired: 14 days passed unused.
	PageExpired PageState = "expired"
	// PageReplaced: the token is of an older generation (the gift was
	// regifted).
	PageReplaced PageState = "replaced"
	// PageClosed: the link is active but its gift no longer waits (its
	// sender cancelled it).
	PageClosed PageState = "closed"
	// PageUnknown: no link has this token.
	PageUnknown PageState = "unknown"
)

// Page is what the recipient's page shows. Besides State, only an open
// page and the answers to confirm and decline carry anything; an end state
// carries State alone.
type Page struct {
	State PageState
	// Test is true for a test gift: nothing ships.
	Test bool
	// Sender is who the gift is from: the link's branding. The logo is not
	// drawn until logo assets exist.
	Sender Branding
	// Message is the landing message with {{firstName}}, {{name}} and
	// {{company}} filled in: text, to be drawn literally.
	Message string
	// Note is the gift's note, as it will be printed.
	Note string
	// Gift names and pictures the gift.
	Gift PageGift
	// WhatHappensNext are the steps after the recipient confirms.
	WhatHappensNext []string
	// RecipientName is who the link is for, to start the address form with.
	RecipientName string
	// ExpiresAt is when the link stops working.
	ExpiresAt time.Time
	// Address is the address just confirmed, on Confirm's answer only: the
	// recipient typed it, so it is echoed back to them once.
	Address *Address
	// ShippingStates are the only states the gift ships to (a prepaid
	// offer's); empty when it ships to every state.
	ShippingStates []string
	// GiftStatus is where the gift is, on a used link's page only: a
	// recipient who opens their link again is told calmly (never the
	// address).
	GiftStatus gift.SendStatus
}

// PageGift is the gift as its recipient sees it.
type PageGift struct {
	Name        string
	Description string
	// Image is the picture's path under the site URL; ImageLabel says what
	// it shows.
	Image      string
	ImageLabel string
	// LeadDays is the production estimate as text.
	LeadDays string
}

// openPage is the page of v, an open link, for its recipient.
func (s *Service) openPage(ctx context.Context, v linkView) Page {
	r := v.recipient()
	b := v.branding()
	msg, _ := campaign.ResolveNote(v.landingMessage(), campaign.NoteValues{Name: r.Name, Company: r.Company})
	p := Page{
		State: PageOpen, Test: core.Mode(v.send.Mode) == core.ModeTest,
		Sender:  Branding{SenderName: b.SenderName, SenderCompany: b.SenderCompany, ContactEmail: b.ContactEmail},
		Message: msg, Note: v.send.Message, RecipientName: r.Name, ExpiresAt: v.link.ExpiresAt,
		ShippingStates: v.send.ShippingStates,
	}
	if prod, err := s.Catalog.Get(ctx, v.send.ProductID); err == nil {
		p.Gift = PageGift{Name: prod.Name, Description: prod.Description, Image: prod.Image, ImageLabel: prod.ImageLabel, LeadDays: prod.LeadDays}
	} else {
		// A gift no longer in the catalog still ships; the page names it
		// generally rather than failing.
		s.Log.WarnContext(ctx, "gift link: product not in the catalog", "send", v.send.ID, "err", err)
		p.Gift = PageGift{Name: "A gift"}
	}
	p.WhatHappensNext = whatHappensNext(p)
	return p
}

// whatHappensNext are the steps an open page promises.
func whatHappensNext(p Page) []string {
	from := p.Sender.SenderCompany
	if from == "" {
		from = p.Sender.SenderName
	}
	if from == "" {
		from = "the sender"
	}
	made := "We prepare your gift."
	if p.Gift.LeadDays != "" {
		made = "We prepare your gift, which usually takes " + p.Gift.LeadDays + "."
	}
	steps := []string{
		"Tell us where to send it below. It costs you nothing: " + from + " has paid for it.",
		made,
		"We ship it to the address you give. The address is used only to deliver this gift, and " + from + " does not see it.",
	}
	if p.Test {
		steps = append(steps, "This is a test gift: nothing will ship.")
	}
	return steps
}

// usedPage is the page of a used link: only where the gift is now (and
// whether it is a test), so that a recipient who opens their link again is
// told calmly what happened. Like every end state it names neither the
// gift, the sender nor the address: whoever holds the link sees it.
func usedPage(v linkView) Page {
	return Page{State: PageUsed, Test: core.Mode(v.send.Mode) == core.ModeTest, GiftStatus: gift.SendStatus(v.send.Status)}
}

// answerPage is the page that answers a confirm or decline of v.
func answerPage(v linkView, st PageState) Page {
	b := v.branding()
	return Page{
		State: st, Test: core.Mode(v.send.Mode) == core.ModeTest,
		Sender: Branding{SenderName: b.SenderName, SenderCompany: b.SenderCompany, ContactEmail: b.ContactEmail},
	}
}

// pageState is the state of v's page for a token of generation tokenGen
// at now.
func pageState(v linkView, tokenGen int32, now time.Time) PageState {
	if tokenGen < v.link.Generation {
		return PageReplaced
	}
	if st := gift.SendStatus(v.send.Status); v.link.State == string(LinkActive) && st != gift.SendAwaitingAddress && st != gift.SendExpired {
		// The gift moved on without its recipient (cancelled, or declined
		// or sent by staff): the page says it is no longer available.
		return PageClosed
	}
	switch v.state(now) {
	case LinkUsed:
		return PageUsed
	case LinkRevoked:
		return PageRevoked
	case LinkExpired:
		return PageExpired
	}
	return PageOpen
}

// stateRefusal is the INVALID_REQUEST_STATE a confirm or decline of a
// link in end state st gets, in plain words.
func stateRefusal(st PageState) error {
	msg := map[PageState]string{
		PageUsed:     "this gift link was already used: the address was confirmed or the gift declined",
		PageRevoked:  "the sender stopped this gift link",
		PageExpired:  "this gift link expired",
		PageReplaced: "this gift link was replaced by a newer one",
		PageClosed:   "this gift is no longer available",
	}[st]
	if msg == "" {
		msg = "this gift link cannot be used"
	}
	return core.FieldError(core.CodeInvalidRequestState, "token", "%s", msg)
}
