package gift

import "github.com/giftwell/giftwell/core/artwork"

// PortraitBlocker is the blocker of a person or gift that needs a portrait
// photo (the queue's portrait_required reason shows it too).
const PortraitBlocker = "Needs a photo"

// Blocker is the queue blocker the gift shows, or "": a gift whose
// portrait is awaiting a photo or its approval shows PortraitBlocker until
// the portrait is approved, while the gift is before production
// (orderBlock keeps it there).
func (g Gift) Blocker() string {
	if g.Portrait == nil || g.Portrait.State == artwork.PortraitApproved {
		return ""
	}
	if g.Status != SendAwaitingAddress && g.Status != SendReady {
		return ""
	}
	return PortraitBlocker
}
