package web

import (
	"fmt"
	"strings"

	"github.com/giftwell/giftwell/core"
)

// GiftsText says how many gifts the campaign made and where they are, by
// core's definitions (gift.Totals): sent, declined, expired; cancelled
// gifts are named apart and counted nowhere else.
func (d campaignData) GiftsText() string {
	t := d.Totals
	if t.Gifts == 0 && t.Cancelled == 0 {
		return "None yet"
	}
	s := plural(t.Gifts, "gift", "gifts")
	var parts []string
	for _, p := range []struct {
		n    int
		word string
	}{{t.Sent, "sent"}, {t.Declined, "declined"}, {t.Expired, "expired"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.word))
		}
	}
	if len(parts) > 0 && (t.Declined > 0 || t.Expired > 0) {
		s += ": " + strings.Join(parts, ", ")
	} else if t.Gifts > 0 {
		s += ", all sent"
	}
	if t.Cancelled > 0 {
		s += fmt.Sprintf(" (%d cancelled, not counted)", t.Cancelled)
	}
	return s
}

// MoneyText says where the money of the campaign's gifts is: what pays
// for gifts sent, what is held for declined or expired ones, what came
// back.
func (d campaignData) MoneyText() string {
	t := d.Totals
	if t.Gifts == 0 {
		return "Nothing paid for gifts yet"
	}
	s := core.Dollars(t.GiftsCents) + " paid for them"
	if t.HeldCents == 0 && t.RefundedCents == 0 {
		return s + ", all for gifts sent"
	}
	parts := []string{core.Dollars(t.SentCents) + " for gifts sent"}
	if t.HeldCents > 0 {
		parts = append(parts, core.Dollars(t.HeldCents)+" held for declined or expired gifts until you regift or refund them (open each gift)")
	}
	if t.RefundedCents > 0 {
		parts = append(parts, core.Dollars(t.RefundedCents)+" back to the balance or the card")
	}
	return s + ": " + strings.Join(parts, "; ")
}
