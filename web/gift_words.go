package web

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/core/tracking"
)

// The words the gift pages use for statuses, link states and events.

// giftStatusName says a gift's status in words.
func giftStatusName(s gift.SendStatus) string {
	switch s {
	case gift.SendAwaitingAddress:
		return "Awaiting address"
	case gift.SendReady:
		return "Ready"
	case gift.SendInProduction:
		return "In production"
	case gift.SendShipped:
		return "Shipped"
	case gift.SendDelivered:
		return "Delivered"
	case gift.SendDeclined:
		return "Declined"
	case gift.SendExpired:
		return "Expired"
	case gift.SendCancelled:
		return "Cancelled"
	}
	return string(s)
}

// giftStatusBadge is the badge class of a gift's status, among the
// shell's campaign badges: green when delivered, grey at the other ends,
// amber while it waits for its recipient, blue-grey on its way.
func giftStatusBadge(s gift.SendStatus) string {
	switch s {
	case gift.SendDelivered:
		return "badge-active"
	case gift.SendDeclined, gift.SendExpired, gift.SendCancelled:
		return "badge-completed"
	case gift.SendAwaitingAddress:
		return "badge-paused"
	}
	return "badge-draft"
}

// orderStateName says where a gift's order with the maker stands.
func orderStateName(s gift.OrderState) string {
	switch s {
	case gift.OrderNone:
		return "Not placed"
	case gift.OrderPlaced:
		return "Placed"
	case gift.OrderShipped:
		return "Shipped"
	case gift.OrderDelivered:
		return "Delivered"
	}
	return sentenceWords(string(s))
}

// outcomeName says what the team reported after a gift.
func outcomeName(outcome string) string {
	switch o := tracking.Outcome(outcome); o {
	case tracking.OutcomeNone, "":
		return "None reported"
	case tracking.OutcomeReplied:
		return "Replied"
	case tracking.OutcomeMeetingBooked:
		return "Meeting booked"
	case tracking.OutcomeMeetingHeld:
		return "Meeting held"
	}
	return sentenceWords(outcome)
}

// sentenceWords writes a value the words above do not know yet as words:
// "meeting_no_show" reads "Meeting no show".
func sentenceWords(v string) string {
	v = strings.ReplaceAll(v, "_", " ")
	if v == "" {
		return v
	}
	return strings.ToUpper(v[:1]) + v[1:]
}

// linkStateText says a gift's link state: "Active until 2 Aug 2026",
// "Used", "Revoked", "Expired 2 Aug 2026"; without a link l is nil: "None:
// you supplied the address" for a sender-supplied address, "None yet" for
// a gift whose link is still to be made.
func linkStateText(g gift.Gift, l *giftlink.Link) string {
	if l == nil {
		if g.Recipient.AddressMode == gift.AddressKnown {
			return "None: you supplied the address"
		}
		return "None yet"
	}
	switch l.LinkState {
	case giftlink.LinkActive:
		return "Active until " + formatDate(l.ExpiresAt)
	case giftlink.LinkUsed:
		if g.Status == gift.SendDeclined {
			return "Used by the recipient to decline the gift"
		}
		return "Used"
	case giftlink.LinkRevoked:
		return "Revoked"
	case giftlink.LinkExpired:
		return "Expired " + formatDate(l.ExpiresAt)
	}
	return string(l.LinkState)
}

// trackingText is a gift's carrier and tracking number, "UPS 1Z999", or ""
// before it ships.
func trackingText(g gift.Gift) string {
	return strings.TrimSpace(g.Carrier + " " + g.TrackingNumber)
}

// eventSentence says what an event of the feed records, in one line. It
// reads only the fields the feed carries, which never hold an address,
// email, note or link.
func eventSentence(e tracking.EventItem) string {
	s := func(key string) string { v, _ := e.Data[key].(string); return v }
	switch e.Type {
	case core.EventSendCreated:
		return "Gift created"
	case core.EventSendAutoApproved:
		return "Approved by auto-approve"
	case core.EventSendLinkOpened:
		return "Recipient opened the link"
	case core.EventSendAddressConfirmed:
		return "Address confirmed"
	case core.EventSendGiftLinkChanged:
		switch s("change") {
		case "message":
			return "Link message or branding changed"
		case "regift":
			return "Regifted: a new link for someone else"
		case "revoke":
			return "Link revoked"
		}
		return "Gift link changed"
	case core.EventSendStatusChanged:
		to := giftStatusName(gift.SendStatus(s("to")))
		line := fmt.Sprintf("Status: %s → %s", giftStatusName(gift.SendStatus(s("from"))), to)
		if s("from") == "" {
			line = "Status: " + to
		}
		if r := s("reason"); r != "" {
			line += " (" + core.Clip(r, 200) + ")"
		}
		return line
	case core.EventSendOrderChanged:
		return fmt.Sprintf("Order: %s → %s", orderStateName(gift.OrderState(s("from"))), orderStateName(gift.OrderState(s("to"))))
	case core.EventSendTrackingChanged:
		return strings.TrimSpace("Tracking: " + s("carrier") + " " + s("trackingNumber"))
	case core.EventSendOutcomeReported:
		return "Outcome reported: " + outcomeName(s("outcome"))
	}
	return string(e.Type)
}

// attributionLines are a gift's attribution values as "name: value",
// those that are set, metadata in key order.
func attributionLines(a gift.Attribution) []string {
	var out []string
	for _, f := range []struct{ name, v string }{
		{"External ID", a.ExternalID}, {"Source", a.Source}, {"Contact", a.ContactID},
		{"Account", a.AccountID}, {"Opportunity", a.OpportunityID},
	} {
		if f.v != "" {
			out = append(out, f.name+": "+f.v)
		}
	}
	keys := make([]string, 0, len(a.Metadata))
	for k := range a.Metadata {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, k+": "+a.Metadata[k])
	}
	return out
}

// soonWindow is how near a link's end must be for the home page to warn.
const soonWindow = 3 * 24 * time.Hour

// joinNonEmpty joins the parts that are not empty with sep.
func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// invoiceItemStatus says where a paid position stands, in words: the
// status of the gift launch made for it, "Not launched yet" before launch
// prepares it, or "Could not be made" when it failed.
func invoiceItemStatus(status string) string {
	switch status {
	case "pending":
		return "Not launched yet"
	case "failed":
		return "Could not be made"
	}
	return giftStatusName(gift.SendStatus(status))
}
