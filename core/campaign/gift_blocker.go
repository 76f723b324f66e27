package campaign

import "github.com/giftwell/giftwell/core/artwork"

// Blocker is the queue blocker the gift shows, or "": a gift whose
// portrait is awaiting a photo or its approval shows "Needs a photo"
// (ReasonPortraitRequired's blocker) until the portrait is approved, while
// the gift is before production (orderBlock keeps it there).
func (g Gift) Blocker() string {
	if g.Portrait == nil || g.Portrait.State == artwork.PortraitApproved {
		return ""
	}
	if g.Status != SendAwaitingAddress && g.Status != SendReady {
		return ""
	}
	return ReasonPortraitRequired.Blocker()
}
