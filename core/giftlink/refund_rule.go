package giftlink

import (
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
)

// RefundFacts are what decides whether a refund may be asked for a gift:
// its status and cost, its gift link as stored, and its current refund
// request. A link's canRequestRefund and a checkout item's refundEligible
// both read them through CanRequestRefund.
type RefundFacts struct {
	SendID     string
	SendStatus string
	TotalCents int64
	// FundedBy says how the gift was paid: a card-paid gift declined by
	// its recipient may be refunded to the card.
	FundedBy gift.FundedBy
	// LinkState is the link's stored state (active, used or revoked) and
	// LinkExpiresAt when it stops working.
	LinkState     string
	LinkExpiresAt time.Time
	// Refund is the state of the gift's current request ("" for none).
	Refund RefundState
}

// linkStateAt is a link's state at now, the one rule every face reads
// (the links list, link writes, refund requests, the recipient's page and
// messages; the records' availability_reason in gift_link_records.sql
// states the same order): a link stored revoked or used stays so; a
// cancelled gift's link is revoked with it; a link of an expired gift, or
// past its end, is expired even before the sweep moves its gift; a link
// whose gift moved on (ready, declined, in production and after) is used.
// Only an unused link of a gift still awaiting its address is active.
func linkStateAt(stored string, expiresAt time.Time, sendStatus string, now time.Time) LinkState {
	switch st := gift.SendStatus(sendStatus); {
	case stored != string(LinkActive):
		return LinkState(stored)
	case st == gift.SendCancelled:
		return LinkRevoked
	case st == gift.SendExpired || !now.Before(expiresAt):
		return LinkExpired
	case st != gift.SendAwaitingAddress:
		return LinkUsed
	}
	return LinkActive
}

// CanRequestRefund says why a refund cannot be asked for the gift of f at
// now, or nil: a paid gift (balance or card) whose link can no longer be
// used (revoked or expired) before anyone confirmed an address, or a
// card-paid gift its recipient declined (its money is held for it,
// docs/decisions/0119-money-after-a-decline.md), with no request waiting
// or refunded. Its refusals are INVALID_REQUEST_STATE naming id.
func CanRequestRefund(f RefundFacts, now time.Time) error {
	st := linkStateAt(f.LinkState, f.LinkExpiresAt, f.SendStatus, now)
	declined := f.SendStatus == string(gift.SendDeclined)
	switch {
	case declined && f.FundedBy != gift.FundedByCheckout:
		return core.FieldError(core.CodeInvalidRequestState, "id",
			"gift %s was declined and its cost already went back to the balance; there is nothing to refund", f.SendID)
	case !declined && st != LinkRevoked && st != LinkExpired:
		return core.FieldError(core.CodeInvalidRequestState, "id",
			"the link of gift %s is %s; only a gift whose link was revoked or expired unused, or a card-paid gift its recipient declined, can be refunded", f.SendID, st)
	case !declined && f.SendStatus != string(gift.SendAwaitingAddress) && f.SendStatus != string(gift.SendExpired):
		return core.FieldError(core.CodeInvalidRequestState, "id",
			"gift %s is %s; only an unused or declined gift can be refunded", f.SendID, f.SendStatus)
	case f.TotalCents <= 0:
		return core.FieldError(core.CodeInvalidRequestState, "id", "gift %s cost nothing; there is nothing to refund", f.SendID)
	case f.Refund.open() || f.Refund == RefundRefunded:
		return core.FieldError(core.CodeInvalidRequestState, "id", "gift %s already has a refund %s", f.SendID, f.Refund)
	}
	return nil
}
