package notify

import (
	"slices"

	"github.com/giftwell/giftwell/core"
)

// Kind is a kind of email a person can choose to get.
type Kind string

// The kinds of email, in the order the settings page lists them.
const (
	// KindWaiting: people started waiting for approval on a playbook.
	KindWaiting Kind = "waiting"
	// KindBalanceStopped: auto-approve stopped because the balance ran out.
	KindBalanceStopped Kind = "balance_stopped"
	// KindDeclinedExpired: a gift of a campaign the person created was
	// declined by its recipient or expired.
	KindDeclinedExpired Kind = "declined_expired"
	// KindDigest: a daily digest of what waits, what was decided, what was
	// declined and the balance.
	KindDigest Kind = "digest"
)

// Kinds lists every kind in the settings page's order.
func Kinds() []Kind {
	return []Kind{KindWaiting, KindBalanceStopped, KindDeclinedExpired, KindDigest}
}

// Valid reports whether k is a known kind.
func (k Kind) Valid() bool { return slices.Contains(Kinds(), k) }

// DefaultOn reports whether a person with role gets k before choosing:
// owners and admins get waiting and balance_stopped; nobody gets
// declined_expired or the digest unless they chose it.
func (k Kind) DefaultOn(role core.Role) bool {
	return role.Manager() && (k == KindWaiting || k == KindBalanceStopped)
}

// Label names k for a person (the settings form and the unsubscribe page).
func (k Kind) Label() string {
	switch k {
	case KindWaiting:
		return "People waiting for approval"
	case KindBalanceStopped:
		return "Auto-approve stopped because the balance ran out"
	case KindDeclinedExpired:
		return "Gifts declined or expired on campaigns you created"
	case KindDigest:
		return "A daily digest"
	}
	return string(k)
}

// Hint says when an email of kind k comes.
func (k Kind) Hint() string {
	switch k {
	case KindWaiting:
		return "Within a minute of the first person, then at most one an hour for each playbook while people wait. Owners and admins only."
	case KindBalanceStopped:
		return "With the amount to add to the balance. Owners and admins only."
	case KindDeclinedExpired:
		return "When a recipient declines a gift or a gift link expires."
	case KindDigest:
		return "Once a day: who waits, what was decided, what was declined, and the balance. Owners and admins only."
	}
	return ""
}
