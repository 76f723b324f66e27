package approval_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/campaign"
)

// Approval runs of one playbook at once share its scheduled people out:
// each person is decided once, by one of them, and paid once.
func TestApprovalRunsAtOnceShareThePeople(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 1_000_000, 10_000)
	w.env.TopUp(t, w.owner, 500_000)
	var people []campaign.RecipientInput
	for i := range 12 {
		people = append(people, newPerson(fmt.Sprint(i)))
	}
	added, err := app.Campaigns.AddRecipients(ctx, w.key, c.ID, campaign.RecipientsAdd{Recipients: people})
	require.NoError(t, err)
	require.Len(t, added.Added, 12)

	var wg sync.WaitGroup
	decided := make([]int, 3)
	for i := range decided {
		wg.Go(func() {
			n, err := app.Approvals.RunScheduledApprovals(ctx, w.env.WorkspaceID, c.ID)
			assert.NoError(t, err)
			decided[i] = n
		})
	}
	wg.Wait()
	require.Equal(t, 12, decided[0]+decided[1]+decided[2], "each person decided once: %v", decided)
	for _, id := range added.Added {
		st, _ := w.state(c.ID, id)
		require.Equal(t, campaign.ApprovalAutoApproved, st)
	}
	var debits int
	require.NoError(t, app.DB.QueryRow(ctx, `SELECT count(*) FROM ledger_entries WHERE workspace_id = $1 AND kind = 'debit'`, w.env.WorkspaceID).Scan(&debits))
	require.Equal(t, 12, debits)
}

// A scheduled person another transaction holds is not skipped for good:
// the run decides the others, then decides them once the lock is let go.
func TestApprovalRunWaitsForAHeldPerson(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 1_000_000, 10_000)
	w.env.TopUp(t, w.owner, 500_000)
	added, err := app.Campaigns.AddRecipients(ctx, w.key, c.ID, campaign.RecipientsAdd{Recipients: []campaign.RecipientInput{newPerson("1"), newPerson("2")}})
	require.NoError(t, err)

	hold, err := app.DB.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = hold.Rollback(ctx) }()
	_, err = hold.Exec(ctx, `SELECT 1 FROM recipients WHERE id = $1 FOR UPDATE`, added.Added[0])
	require.NoError(t, err)

	done := make(chan int, 1)
	go func() {
		n, err := app.Approvals.RunScheduledApprovals(ctx, w.env.WorkspaceID, c.ID)
		assert.NoError(t, err)
		done <- n
	}()
	require.Eventually(t, func() bool {
		st, _ := w.state(c.ID, added.Added[1])
		return st == campaign.ApprovalAutoApproved
	}, 10*time.Second, 10*time.Millisecond, "the person not held is decided meanwhile")
	select {
	case <-done:
		t.Fatal("the run ended with a scheduled person held")
	case <-time.After(100 * time.Millisecond):
	}
	st, _ := w.state(c.ID, added.Added[0])
	require.Equal(t, campaign.ApprovalScheduled, st)

	require.NoError(t, hold.Commit(ctx))
	select {
	case n := <-done:
		require.Equal(t, 2, n)
	case <-time.After(10 * time.Second):
		t.Fatal("the run did not decide the person once let go")
	}
	st, _ = w.state(c.ID, added.Added[0])
	require.Equal(t, campaign.ApprovalAutoApproved, st)
}
