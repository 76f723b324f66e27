package web

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
)

// MoneyText says where the gift's money is now and when it moved, in
// words: core decides where it is (gift.Money); the page only says it.
func (d giftData) MoneyText() string {
	m := d.Money
	amount := core.Dollars(m.TotalCents)
	paid := "paid by card at checkout"
	if m.FundedBy == gift.FundedByBalance {
		paid = "paid from the balance"
	}
	when := func(t any, prefix string) string {
		if s := formatDate(t); s != "" {
			return prefix + s
		}
		return ""
	}
	ended := ""
	switch m.Status {
	case gift.SendDeclined:
		ended = d.Gift.Recipient.Name + " declined this gift" + when(m.EndedAt, " on ") + ". "
	case gift.SendExpired:
		ended = "The gift link expired" + when(m.EndedAt, " on ") + " before an address was confirmed. "
	}
	switch m.State {
	case gift.MoneySpent:
		return fmt.Sprintf("%s, %s, pays for this gift.", amount, paid)
	case gift.MoneyBack:
		if m.ToCard {
			return ended + fmt.Sprintf("Its %s was refunded to the card that paid%s; the card shows it within %s.", amount, when(m.BackAt, " on "), gift.RefundDays)
		}
		return ended + fmt.Sprintf("Its %s went back to the balance%s.", amount, when(m.BackAt, " on "))
	case gift.MoneyHeld:
		s := ended + fmt.Sprintf("Its %s, %s, is held for it until you choose: nothing moves by itself. ", amount, paid)
		if m.Status == gift.SendDeclined && m.FundedBy == gift.FundedByCheckout {
			s += "Regift it to someone else, or ask for a refund to the card."
		} else if m.FundedBy == gift.FundedByBalance {
			s += "Ask for a refund, and it goes back to the balance once Giftwell's staff approve it."
		} else {
			s += "Ask for a refund to the card."
		}
		return s + d.refundWhen()
	case gift.MoneyNone:
		if m.FundedBy == gift.FundedByBalance {
			return fmt.Sprintf("This gift was cancelled; its %s went back to the balance.", amount)
		}
		return "This gift was cancelled before it was made."
	}
	return ""
}

// refundWhen says when a card refund arrives, for a held card-paid gift.
func (d giftData) refundWhen() string {
	if d.Money.FundedBy != gift.FundedByCheckout {
		return ""
	}
	return " Giftwell's staff review every refund; once they approve it, the card shows it within " + gift.RefundDays + "."
}

// AddressText says where the gift's address stands in its current state:
// supplied by the sender, confirmed, awaited, or no longer needed.
func (d giftData) AddressText() string {
	g := d.Gift
	if a := d.SenderAddress(); a != "" {
		return a + " (you supplied it)"
	}
	if g.AddressConfirmedAt != nil {
		return "Confirmed by the recipient " + formatDateTime(*g.AddressConfirmedAt) + ". It is kept for shipping and never shown."
	}
	switch g.Status {
	case gift.SendDeclined:
		return "Not needed: the recipient declined the gift."
	case gift.SendExpired:
		return "Never confirmed: the gift link expired first."
	case gift.SendCancelled:
		return "Not needed: the gift was cancelled."
	}
	return "Waiting for the recipient to confirm it through the gift link."
}

// CanRegift is true when the viewer, an owner or admin, may send this
// declined gift's held money on to someone else (its link shows canRegift;
// core asks the same of the regift).
func (d giftData) CanRegift() bool {
	return d.CanPay && d.Gift.Status == gift.SendDeclined && d.Link != nil && d.Link.CanRegift
}

// regift gives gift id a new recipient and link (POST /gifts/{id}/regift),
// then shows the gift with its new link.
func (h *handler) regift(w http.ResponseWriter, r *http.Request, s session) {
	if !h.parseForm(w, r) {
		return
	}
	id := r.PathValue("id")
	gen, _ := strconv.Atoi(r.PostForm.Get("generation"))
	_, err := h.app.GiftLinks.Regift(r.Context(), s.Principal, id, giftlink.Regift{Generation: gen, Recipient: giftlink.RegiftRecipient{
		Name: r.PostForm.Get("recipient.name"), Email: r.PostForm.Get("recipient.email"), Company: r.PostForm.Get("recipient.company"),
	}})
	if err != nil {
		h.formFailed(w, r, s, "gift", h.giftLoader(id), err, "recipient.name", "recipient.email", "recipient.company")
		return
	}
	http.Redirect(w, r, "/gifts/"+id+"?done=regifted#gift-link-copy", http.StatusSeeOther)
}
