// Package tracking is Giftwell's view of gifts after approval: the event
// feed (list_tracking_events), tracking items (get_tracking), the outcomes
// the customer reports (record_outcome), a campaign's results
// (campaign_results) and the workspace report (get_report).
package tracking

import (
	"github.com/giftwell/giftwell/core"
)

// Service is the tracking subject: what happened to gifts after approval.
// Its methods are the transaction boundaries of the subject.
type Service struct {
	*core.Kernel
}
