package giftlink

import (
	"slices"
	"strings"

	"github.com/giftwell/giftwell/core"
)

// shipsTo says why gift v cannot ship to state (a normalized two-letter
// code), or nil: a gift bought at a prepaid offer ships only within the
// offer's states (sends.shipping_states); other gifts ship to every state.
// The refusal is VALIDATION_ERROR naming state, with the allowed states
// spelled out for the recipient.
func (v linkView) shipsTo(state string) error {
	allowed := v.send.ShippingStates
	if len(allowed) == 0 || slices.Contains(allowed, state) {
		return nil
	}
	name := usStates[state]
	if name == "" {
		name = state
	}
	return core.Invalid("state", "this gift ships only to %s; %s (%s) is not one of them, so enter an address in one of those states or decline the gift",
		strings.Join(allowed, ", "), name, state)
}
