package approval

import (
	"context"
	"sync"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
)

// Group commit. Every auto-approval of a workspace pays from one balance
// row, so approvals that each took that row's lock in their own
// transaction ran one at a time, and an add that met another approval was
// answered scheduled. Now an add that finds its balance's committer idle
// takes it (claimIdle) and decides its person in its own transaction, as
// before: a lone add commits alone, with no wait and no timer. An add that
// finds it busy commits its person, once they pass every check that needs
// no money, as scheduled and asks the committer to decide them. (Should
// the group fail, it queues the playbooks' approval jobs; should this
// process stop first, the minute's sweep, SweepScheduledWorker, or serve's
// start queues them.) The committer is one goroutine per workspace and
// mode, alive while there is work: while a group's transaction runs, new
// asks queue and form the next group, as PostgreSQL's own group commit
// gathers the commits that arrive during a flush, and as TigerBeetle
// batches the transfers that arrive while the last batch is applied. A
// group is one transaction (decideGroup) that takes the balance once,
// decides its people in queue order with the same checks, writes every
// gift and debit, and answers each add with its own decision.

const (
	// groupWait bounds how long an add waits for its group's answer; past
	// it the add answers scheduled and the group (or the approval job)
	// decides the person moments later.
	groupWait = 750 * time.Millisecond
	// groupMost is the most people one group decides, so that one
	// transaction stays short under a flood of adds.
	groupMost = 64
)

// groupKey is one balance: a workspace in a mode.
type groupKey struct {
	workspaceID string
	mode        core.Mode
}

// groupAsk is one add's request to decide its person.
type groupAsk struct {
	campaignID  string
	recipientID string
	// by is who added the person, with their credential's names as the
	// add's request read them: the gift's trail needs no read of them.
	by campaign.Preparer
	// answer receives the decision; buffered, so the committer never
	// waits for an add that gave up.
	answer chan groupAnswer
}

// groupAnswer is the committer's answer to one ask.
type groupAnswer struct {
	decision autoDecision
	// decided is false when the person was left scheduled (held by an
	// approval job, their playbook no longer on, or the group failed: then
	// the approval job decides them).
	decided bool
}

// groupCommitter holds the asks of each balance that a committer has yet
// to take. A key present in pending means its committer runs; the zero
// value is ready to use.
type groupCommitter struct {
	mu      sync.Mutex
	pending map[groupKey][]groupAsk
}

// askGroup hands person recipientID of playbook campaignID, added by by
// and committed as scheduled, to the committer of key and waits for its decision, at most
// groupWait (then, or when ctx ends, decided is false: the person stays
// scheduled for the group or the approval job).
func (a *Service) askGroup(ctx context.Context, key groupKey, campaignID, recipientID string, by campaign.Preparer) groupAnswer {
	ask := groupAsk{campaignID: campaignID, recipientID: recipientID, by: by, answer: make(chan groupAnswer, 1)}
	g := &a.group
	g.mu.Lock()
	if g.pending == nil {
		g.pending = map[groupKey][]groupAsk{}
	}
	asks, running := g.pending[key]
	g.pending[key] = append(asks, ask)
	g.mu.Unlock()
	if !running {
		go a.commitGroups(key)
	}
	wait := time.NewTimer(groupWait)
	defer wait.Stop()
	select {
	case ans := <-ask.answer:
		return ans
	case <-wait.C:
	case <-ctx.Done():
	}
	return groupAnswer{decision: autoDecision{state: campaign.ApprovalScheduled}}
}

// claimIdle takes key's committer for the caller when it is idle (no
// group running, no ask waiting) and reports whether it did: an add that
// finds it so is the only writer of its balance here, and decides its
// person in its own transaction, as one commit with no wait (a lone add
// commits alone). releaseIdle gives it back.
func (a *Service) claimIdle(key groupKey) bool {
	g := &a.group
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, busy := g.pending[key]; busy {
		return false
	}
	if g.pending == nil {
		g.pending = map[groupKey][]groupAsk{}
	}
	g.pending[key] = []groupAsk{}
	return true
}

// releaseIdle gives back key's committer that claimIdle took, starting it
// for the asks that queued meanwhile.
func (a *Service) releaseIdle(key groupKey) {
	g := &a.group
	g.mu.Lock()
	if len(g.pending[key]) == 0 {
		delete(g.pending, key)
		g.mu.Unlock()
		return
	}
	g.mu.Unlock()
	go a.commitGroups(key)
}

// commitGroups is key's committer: it decides the asks pending for key,
// at most groupMost at a time, each group in one transaction, until none
// are left.
func (a *Service) commitGroups(key groupKey) {
	g := &a.group
	for {
		g.mu.Lock()
		asks := g.pending[key]
		if len(asks) == 0 {
			delete(g.pending, key)
			g.mu.Unlock()
			return
		}
		n := min(len(asks), groupMost)
		g.pending[key] = append([]groupAsk{}, asks[n:]...)
		g.mu.Unlock()
		a.decideGroup(key, asks[:n])
	}
}
