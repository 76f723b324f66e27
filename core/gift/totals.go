package gift

// Totals are a set of gifts counted by the one definition of each figure
// that the campaign page, the gift page, reports, invoices and
// campaign_results show (docs/decisions/0119-money-after-a-decline.md):
//
//   - Gifts: every gift made that was not cancelled (a cancelled gift never
//     reached anyone and counts nowhere but Cancelled). Gifts = Sent +
//     Declined + Expired.
//   - Sent: gifts on their way to their person or with them: awaiting an
//     address, ready, in production, shipped or delivered.
//   - Declined: gifts their recipient declined.
//   - Expired: gifts whose link expired before an address was confirmed.
//   - Refunded: declined or expired gifts whose cost came back: credited to
//     the balance, or refunded to the card through a refund request.
//   - Committed: the cost of the gifts whose money has not come back: every
//     sent gift, and a declined or expired one until it is refunded.
//     CommittedCents + RefundedCents = GiftsCents.
//   - Held: the part of Committed that pays for no gift on its way: declined
//     or expired gifts not refunded, whose money waits to be regifted or
//     refunded. CommittedCents = SentCents + HeldCents.
type Totals struct {
	Gifts          int
	GiftsCents     int64
	Sent           int
	SentCents      int64
	Declined       int
	Expired        int
	Refunded       int
	RefundedCents  int64
	CommittedCents int64
	HeldCents      int64
	Cancelled      int
}

// Add counts n gifts in status, paid as fundedBy, that cost cents together;
// moneyBack says their cost came back (credited to the balance or refunded
// through a request).
func (t *Totals) Add(status SendStatus, fundedBy FundedBy, moneyBack bool, n int, cents int64) {
	switch MoneyOf(status, fundedBy, moneyBack) {
	case MoneyNone:
		t.Cancelled += n
		return
	case MoneySpent:
		t.Sent += n
		t.SentCents += cents
		t.CommittedCents += cents
	case MoneyHeld:
		t.HeldCents += cents
		t.CommittedCents += cents
	case MoneyBack:
		t.Refunded += n
		t.RefundedCents += cents
	}
	t.Gifts += n
	t.GiftsCents += cents
	switch status {
	case SendDeclined:
		t.Declined += n
	case SendExpired:
		t.Expired += n
	}
}

// Plus is t with u added.
func (t Totals) Plus(u Totals) Totals {
	t.Gifts += u.Gifts
	t.GiftsCents += u.GiftsCents
	t.Sent += u.Sent
	t.SentCents += u.SentCents
	t.Declined += u.Declined
	t.Expired += u.Expired
	t.Refunded += u.Refunded
	t.RefundedCents += u.RefundedCents
	t.CommittedCents += u.CommittedCents
	t.HeldCents += u.HeldCents
	t.Cancelled += u.Cancelled
	return t
}

// MoneyState is where one gift's money is.
type MoneyState string

// The money states.
const (
	// MoneyNone: a cancelled gift; what it cost went back when it was
	// cancelled (a balance-paid one) or is a refund's (a card-paid one),
	// and it counts in no figure but cancelled.
	MoneyNone MoneyState = "none"
	// MoneySpent: the gift is on its way or with its person; its cost
	// pays for it.
	MoneySpent MoneyState = "spent"
	// MoneyHeld: the gift was declined or expired and its cost has not
	// come back yet: it waits for a regift or a refund.
	MoneyHeld MoneyState = "held"
	// MoneyBack: the gift was declined or expired and its cost came back,
	// to the balance or the card.
	MoneyBack MoneyState = "back"
)

// MoneyOf is where the money of a gift in status, paid as fundedBy, is;
// moneyBack says its cost came back. A balance-paid gift that is declined
// is credited in the decline's own transaction, so it is back at once; a
// card-paid one is held until an owner or admin regifts it or its refund
// to the card succeeds.
func MoneyOf(status SendStatus, fundedBy FundedBy, moneyBack bool) MoneyState {
	switch status {
	case SendCancelled:
		return MoneyNone
	case SendDeclined, SendExpired:
		// A balance-paid gift declined is credited in the decline's own
		// transaction (a history gift was never debited): back either way.
		if moneyBack || (status == SendDeclined && fundedBy == FundedByBalance) {
			return MoneyBack
		}
		return MoneyHeld
	}
	return MoneySpent
}
