package gift

import (
	"slices"
	"strings"
)

// SendStatus is a gift's status. Statuses only move forward, along
// giftMoves (docs/decisions/0061-gift-statuses-and-moves.md).
type SendStatus string

// The gift statuses, in the order a gift lives them, then the ends.
const (
	// SendAwaitingAddress: approved; waits for the recipient to confirm
	// their address through the gift link.
	SendAwaitingAddress SendStatus = "awaiting_address"
	// SendReady: the address is known; waits for production.
	SendReady SendStatus = "ready"
	// SendInProduction: the order is placed; it can no longer be cancelled.
	SendInProduction SendStatus = "in_production"
	// SendShipped: on its way, usually with tracking.
	SendShipped SendStatus = "shipped"
	// SendDelivered: arrived (an end).
	SendDelivered SendStatus = "delivered"
	// SendDeclined: declined by its recipient before production; it commits
	// nothing (a balance-paid gift is credited back).
	SendDeclined SendStatus = "declined"
	// SendExpired: the recipient never confirmed an address before the gift
	// link expired.
	SendExpired SendStatus = "expired"
	// SendCancelled: cancelled before production; it commits nothing and
	// never reached the person (not a repeat; a balance-paid gift is
	// credited back).
	SendCancelled SendStatus = "cancelled"
)

// SendStatuses lists every gift status.
var SendStatuses = []SendStatus{SendAwaitingAddress, SendReady, SendInProduction, SendShipped, SendDelivered,
	SendDeclined, SendExpired, SendCancelled}

// Valid reports whether s is one of SendStatuses.
func (s SendStatus) Valid() bool { return slices.Contains(SendStatuses, s) }

// giftMoves are the allowed moves: from a status to the statuses it may
// become. A status missing here is an end. There is no move back.
var giftMoves = map[SendStatus][]SendStatus{
	SendAwaitingAddress: {SendReady, SendDeclined, SendExpired, SendCancelled},
	SendReady:           {SendInProduction, SendDeclined, SendCancelled},
	SendInProduction:    {SendShipped},
	SendShipped:         {SendDelivered},
}

// CanMove reports whether a gift in status s may become to.
func (s SendStatus) CanMove(to SendStatus) bool { return slices.Contains(giftMoves[s], to) }

// refunds reports whether a balance-paid gift moving to s gets its cost
// back: a cancellation (only possible before production) or a decline.
func (s SendStatus) refunds() bool { return s == SendCancelled || s == SendDeclined }

// tracked reports whether a gift in status s may carry tracking.
func (s SendStatus) tracked() bool { return s == SendShipped || s == SendDelivered }

// nextStatuses names what s may become, for messages.
func (s SendStatus) nextStatuses() string {
	next := giftMoves[s]
	if len(next) == 0 {
		return "nothing: " + string(s) + " is an end"
	}
	names := make([]string, len(next))
	for i, n := range next {
		names[i] = string(n)
	}
	return strings.Join(names, ", ")
}

// initialStatus is a gift's status when approval creates it: ready when the
// sender supplied the address, awaiting_address when the recipient confirms
// it.
func initialStatus(mode AddressMode) SendStatus {
	if mode == AddressKnown {
		return SendReady
	}
	return SendAwaitingAddress
}

// OrderState is the state of a gift's production order, derived from its
// status: none before production (and for gifts that end without one),
// placed in production, then shipped and delivered.
type OrderState string

// The order states.
const (
	OrderNone      OrderState = "none"
	OrderPlaced    OrderState = "placed"
	OrderShipped   OrderState = "shipped"
	OrderDelivered OrderState = "delivered"
)

// OrderStateOf is the order state of a gift in status s.
func OrderStateOf(s SendStatus) OrderState {
	switch s {
	case SendInProduction:
		return OrderPlaced
	case SendShipped:
		return OrderShipped
	case SendDelivered:
		return OrderDelivered
	}
	return OrderNone
}
