// Package notify tells approvers by email: people started waiting on a
// playbook, auto-approve stopped for the balance, a gift was declined or
// expired, and a daily digest. Each person chooses which kinds they get
// (Choices), every email carries a one-click unsubscribe for its kind
// (UnsubscribeToken), and emails go out through identity's outbox in the
// transaction of a job, never in the write that caused them.
//
// The writes that cause an email reach it through the kernel's event
// outbox (Service.Enqueue): a playbook.person_waiting or a declined or
// expired send.status_changed inserts one River job, unique per playbook
// and kind for a short slot, so that ten adds in a minute bring one email.
// See docs/decisions/0118-approvers-are-told.md.
package notify

import (
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/identity"
)

// Service tells approvers by email.
type Service struct {
	*core.Kernel
	// Identity queues the emails (its outbox and delivery job).
	Identity *identity.Service
	// Approvals reads the approval queue the emails describe.
	Approvals *approval.Service
}
