package approval_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
)

// workFundsArrived works the workspace's waiting funds-arrived jobs, as
// River would, and returns how many people they approved.
func (w *playbooks) workFundsArrived() int {
	w.t.Helper()
	n := 0
	for _, job := range apptest.WorkJobs(w.t, w.env.App, &approval.FundsArrivedWorker{Approvals: w.env.App.Approvals}) {
		require.Equal(w.t, rivertype.JobStateCompleted, job.State, "errors: %v", job.Errors)
		var out approval.FundsArrivedOutput
		require.NoError(w.t, json.Unmarshal(job.Output(), &out))
		n += out.Approved
	}
	return n
}

// whyOf is the queue's why for a waiting person.
func (w *playbooks) whyOf(recipientID string) string {
	w.t.Helper()
	items, err := w.env.App.Approvals.Queue(context.Background(), w.owner, "")
	require.NoError(w.t, err)
	for _, it := range items {
		if it.RecipientID == recipientID {
			return it.Why
		}
	}
	w.t.Fatalf("%s is not in the queue", recipientID)
	return ""
}

// A top-up decides again, in queue order and with no re-add, the people who
// waited only for funds on an auto-approving playbook; a person the funds
// still do not cover keeps waiting and is told how much to add; a person of
// a playbook without auto-approve keeps waiting for a person.
func TestTopUpDecidesPeopleWaitingForFunds(t *testing.T) {
	t.Parallel()
	w := newPlaybooks(t)
	auto := w.playbook("gourmet-snack-crate", 1_000_000, 10_000) // $90 a gift
	manual := w.playbook("gourmet-snack-crate", 1_000_000, 0)

	var ids []string
	for _, n := range []string{"1", "2", "3"} {
		res := w.add(auto.ID, n)
		require.Equal(t, campaign.ApprovalWaiting, res.Approval.State)
		require.Equal(t, campaign.ReasonLowBalance, res.Approval.Reason)
		require.Equal(t, []string{"Add funds"}, res.Blockers)
		ids = append(ids, res.RecipientID)
	}
	require.Equal(t, "Add $270.00 to the balance to pay for the 3 gifts waiting for funds. "+campaign.FundsRedecideWhy, w.whyOf(ids[0]))
	other := w.add(manual.ID, "4")
	require.Equal(t, campaign.ReasonAutoApproveOff, other.Approval.Reason)
	require.Equal(t, "Add $360.00 to the balance to pay for the 4 gifts waiting for funds.", other.Why, "no auto-approve: no promise")
	t.Logf("before the top-up: %s", w.whyOf(ids[0]))

	// $200 pays for two of the three, in queue order.
	w.env.TopUp(t, w.owner, 20_000)
	require.Equal(t, 2, w.workFundsArrived())
	for i, id := range ids {
		state, reason := w.state(auto.ID, id)
		t.Logf("after $200: person %d is %s %s", i+1, state, reason)
	}
	st, _ := w.state(auto.ID, ids[0])
	require.Equal(t, campaign.ApprovalAutoApproved, st)
	st, _ = w.state(auto.ID, ids[1])
	require.Equal(t, campaign.ApprovalAutoApproved, st)
	st, reason := w.state(auto.ID, ids[2])
	require.Equal(t, campaign.ApprovalWaiting, st)
	require.Equal(t, campaign.ReasonLowBalance, reason)
	require.Equal(t, int64(2_000), w.balance())
	require.Equal(t, "Add $160.00 to the balance to pay for the 2 gifts waiting for funds. "+campaign.FundsRedecideWhy, w.whyOf(ids[2]))
	require.Len(t, w.events(core.EventSendAutoApproved), 2)
	require.Len(t, w.events(core.EventPlaybookPersonWaiting), 4, "no new waiting event for the person still waiting for funds")
	st, _ = w.state(manual.ID, other.RecipientID)
	require.Equal(t, campaign.ApprovalWaiting, st, "a person's decision stays a person's")

	// The next top-up approves the last one; a third finds nobody.
	w.env.TopUp(t, w.owner, 10_000)
	require.Equal(t, 1, w.workFundsArrived())
	st, _ = w.state(auto.ID, ids[2])
	require.Equal(t, campaign.ApprovalAutoApproved, st)
	w.env.TopUp(t, w.owner, 10_000)
	require.Zero(t, w.workFundsArrived())
	require.Equal(t, 3, w.requireOneDebitPerGift())
	w.env.RequireLedgerConsistent(t, w.owner)
}

// Every wait says why and the way out, with the numbers: never nothing.
func TestQueueWhySaysTheWayOut(t *testing.T) {
	t.Parallel()
	w := newPlaybooks(t)
	w.env.TopUp(t, w.owner, 100_000)
	w.workFundsArrived()
	over := w.playbook("gourmet-snack-crate", 1_000_000, 6_000) // $90 over a $60 limit
	res := w.add(over.ID, "1")
	require.Equal(t, campaign.ReasonOverPerGiftLimit, res.Approval.Reason)
	require.Empty(t, res.Blockers, "a person may approve it")
	require.Equal(t, "$90.00 is over this playbook's $60.00 limit: approve by hand, or raise the limit.", res.Why)
	require.Equal(t, res.Why, w.whyOf(res.RecipientID))

	items, err := w.env.App.Approvals.Queue(context.Background(), w.owner, "")
	require.NoError(t, err)
	for _, it := range items {
		require.NotEmpty(t, it.Why, "%s", it.RecipientID)
	}
}
