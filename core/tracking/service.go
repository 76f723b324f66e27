// Package tracking is Giftwell's view of gifts after approval: the event
// feed (list_tracking_events) now; a gift's tracking and its outcomes join
// it later.
package tracking

import (
	"github.com/giftwell/giftwell/core"
)

// Service is the tracking subject: what happened to gifts after approval.
// Its methods are the transaction boundaries of the subject.
type Service struct {
	*core.Kernel
}
