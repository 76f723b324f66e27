package approval_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
)

// rowCounts counts the rows an add may write: people, gifts, ledger
// entries, events and River jobs.
func rowCounts(t *testing.T, env *apptest.Env) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range []string{"recipients", "sends", "ledger_entries", "events", "river_job"} {
		var n int
		require.NoError(t, env.App.DB.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n), table)
		out[table] = n
	}
	return out
}

// TestAddToPlaybookDryRun: a dry run answers the approval an add would
// reach now, with the price, and writes nothing.
func TestAddToPlaybookDryRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	// 9,000 a gift, auto-approve up to 10,000, a balance of 5,000.
	c := w.playbook("gourmet-snack-crate", 100_000, 10_000)
	w.env.TopUp(t, w.owner, 5_000)
	dry := func(n string) approval.AddPersonResult {
		t.Helper()
		before := rowCounts(t, w.env)
		out, err := app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: newPerson(n), DryRun: true})
		require.NoError(t, err)
		require.Equal(t, before, rowCounts(t, w.env), "a dry run writes nothing")
		require.True(t, out.DryRun)
		require.Equal(t, int64(9_000), out.PriceCents)
		return out
	}

	low := dry("1")
	require.Equal(t, campaign.PlaybookApproval{State: campaign.ApprovalWaiting, Reason: campaign.ReasonLowBalance}, low.Approval)
	require.Empty(t, low.RecipientID)
	require.False(t, low.Queued)
	require.Contains(t, low.Blockers, campaign.ReasonLowBalance.Blocker())
	require.NotEmpty(t, low.TopUpURL)

	w.env.TopUp(t, w.owner, 10_000)
	ok := dry("1")
	require.Equal(t, campaign.PlaybookApproval{State: campaign.ApprovalAutoApproved}, ok.Approval)
	require.Equal(t, int64(15_000), w.balance())

	// A person already on the playbook: their id and current state.
	real := w.add(c.ID, "1")
	require.Equal(t, campaign.ApprovalAutoApproved, real.Approval.State)
	again := dry("1")
	require.True(t, again.AlreadyQueued)
	require.Equal(t, real.RecipientID, again.RecipientID)
	require.Equal(t, real.Approval, again.Approval)

	// Over the per-gift limit.
	over := w.playbook("gourmet-snack-crate", 100_000, 8_999)
	c = over
	require.Equal(t, campaign.ReasonOverPerGiftLimit, dry("2").Approval.Reason)
}
