// Package approval is Giftwell's decisions on people: the approval queue
// and its view of the balance, approve and skip, auto-approve (its rule
// and the scheduled-approval job), adds to a playbook decided at once,
// repeats, legacy quotes and checkout launch. Every decision that creates a
// gift asks core/gift to create it in the decision's transaction; the
// campaign rules a decision reads (the roster, the checks, the limits) are
// core/campaign's.
package approval

import (
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/ledger"
)

// Service is the approval subject. Its methods are the transaction
// boundaries of the subject; the ones that take a transaction join it.
type Service struct {
	*core.Kernel
	// Campaigns holds the campaigns, rosters and rules decisions read.
	Campaigns *campaign.Service
	// Gifts creates the gifts decisions approve.
	Gifts *gift.Service
	// Ledger reads and locks the balance that pays for playbook gifts.
	Ledger *ledger.Service

	// NoGroupCommit makes every add decide its person in its own
	// transaction, as before group commit (an add that meets another
	// approval is answered scheduled at once); only tests of the approval
	// job's side of that race set it.
	NoGroupCommit bool

	// group gathers the auto-approvals of adds into group commits.
	group groupCommitter
}
