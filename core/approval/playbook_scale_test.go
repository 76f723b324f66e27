package approval_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
)

// TestPlaybookAddsAtScale fills one playbook with auto-approve on and
// ample balance to its 2,000 people with 8 writers adding distinct people
// at once (-short: 300), plus one more person each past the bound, while
// River works the approval jobs the adds insert. Every add inside the bound
// is answered auto_approved or scheduled (never PLAYBOOK_BUSY), every add
// past it is VALIDATION_ERROR and saves nothing, the background run
// approves every scheduled person, and the money holds: one debit per
// gift, the balance equals its ledger, which never went below zero.
func TestPlaybookAddsAtScale(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app, _ := w.serverApp()

	const writers = 8
	people := core.RecipientsPerPlaybook
	if testing.Short() {
		people = 300
	}
	// 9,000 a gift; the budgets and the balance fit every one.
	c := w.playbook("gourmet-snack-crate", campaign.MaxMonthlyBudgetCents, 10_000)
	for range 10 {
		w.env.TopUp(t, w.owner, 2_000_000)
	}
	if people < core.RecipientsPerPlaybook {
		// Fill the roster ahead of the writers, so that they still meet the bound.
		w.fillRoster(t, c.ID, core.RecipientsPerPlaybook-people)
	}

	type outcome struct {
		state campaign.ApprovalState
		code  core.Code
	}
	var (
		mu       sync.Mutex
		outcomes []outcome
		wg       sync.WaitGroup
		start    = make(chan struct{})
	)
	total := people + writers // one past the bound for each writer
	began := time.Now()
	for wr := range writers {
		wg.Go(func() {
			<-start
			for i := wr; i < total; i += writers {
				in := campaign.RecipientInput{Name: fmt.Sprintf("Person %d", i), SourceSystem: "crm", ExternalID: fmt.Sprintf("s%d", i)}
				res, err := app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: in})
				mu.Lock()
				outcomes = append(outcomes, outcome{state: res.Approval.State, code: core.ErrorCode(err)})
				mu.Unlock()
			}
		})
	}
	close(start)
	wg.Wait()
	elapsed := time.Since(began)

	counts := map[string]int{}
	for _, o := range outcomes {
		if o.code != "" {
			counts[string(o.code)]++
		} else {
			counts[string(o.state)]++
		}
	}
	require.Equal(t, writers, counts[string(core.CodeValidation)], "one add past the bound per writer: %v", counts)
	require.Equal(t, people, counts[string(campaign.ApprovalAutoApproved)]+counts[string(campaign.ApprovalScheduled)], "answers: %v", counts)

	// The background run approves every scheduled person. The bound only
	// catches a run that stopped: under -race on a busy machine the run
	// takes minutes, not the seconds it takes alone.
	deadline := time.Now().Add(5 * time.Minute)
	left := -1
	for time.Now().Before(deadline) {
		require.NoError(t, app.DB.QueryRow(ctx, `SELECT count(*) FROM recipients WHERE campaign_id = $1 AND approval_state <> 'auto_approved'`, c.ID).Scan(&left))
		if left == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	settled := time.Since(began)
	require.Zero(t, left, "people not auto-approved five minutes after the adds")

	var roster, gifts int
	require.NoError(t, app.DB.QueryRow(ctx, `SELECT (SELECT count(*) FROM recipients WHERE campaign_id = $1), (SELECT count(*) FROM sends WHERE campaign_id = $1)`, c.ID).Scan(&roster, &gifts))
	require.Equal(t, core.RecipientsPerPlaybook, roster, "the roster holds exactly the bound")
	require.Equal(t, core.RecipientsPerPlaybook, gifts, "one gift per person")
	w.requireOneDebitPerGift() // the whole ledger replayed, however long
	t.Logf("%d adds by %d writers in %s: %.0f adds/s answered %v; every person auto-approved %s after the first add",
		len(outcomes), writers, elapsed.Round(time.Millisecond), float64(len(outcomes))/elapsed.Seconds(), counts, settled.Round(time.Millisecond))
}

// fillRoster adds n people to playbook id's roster in one write (as they
// wait or are scheduled), for a test that needs a roster near its bound.
func (w *playbooks) fillRoster(t *testing.T, id string, n int) {
	t.Helper()
	for from := 0; from < n; from += campaign.PeoplePerAddCall {
		var batch []campaign.RecipientInput
		for i := from; i < min(n, from+campaign.PeoplePerAddCall); i++ {
			batch = append(batch, campaign.RecipientInput{Name: fmt.Sprintf("Earlier %d", i), SourceSystem: "crm", ExternalID: fmt.Sprintf("e%d", i)})
		}
		_, err := w.env.App.Campaigns.AddRecipients(context.Background(), w.key, id, campaign.RecipientsAdd{Recipients: batch})
		require.NoError(t, err)
	}
}

// The roster's counter follows every write that adds or removes people: a
// full playbook refuses an add, people taken off make room for as many.
func TestRosterBoundFollowsRemovals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	c := w.playbook("gourmet-snack-crate", 0, 0) // auto-approve off: people wait
	w.fillRoster(t, c.ID, core.RecipientsPerPlaybook)
	full := func(n string) {
		t.Helper()
		_, err := w.env.App.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: newPerson(n)})
		require.Equal(t, core.CodeValidation, core.ErrorCode(err), "add %s: %v", n, err)
		require.Contains(t, err.Error(), "2000 people")
	}
	full("late")

	roster := w.rosterOf(c.ID)
	require.Len(t, roster, core.RecipientsPerPlaybook)
	got, err := w.env.App.Campaigns.GetCampaign(ctx, w.owner, c.ID)
	require.NoError(t, err)
	_, err = w.env.App.Campaigns.ManageRecipients(ctx, w.owner, c.ID, campaign.RecipientsManage{
		Action: campaign.ActionRemove, RecipientIDs: []string{roster[0].RecipientID, roster[1].RecipientID}, ExpectedPolicyVersion: got.PolicyVersion})
	require.NoError(t, err)
	active := campaign.StatusActive
	if got, err = w.env.App.Campaigns.GetCampaign(ctx, w.owner, c.ID); err == nil && got.Status != active {
		_, err = w.env.App.Campaigns.UpdateCampaign(ctx, w.owner, c.ID, campaign.CampaignPatch{Status: &active, ExpectedPolicyVersion: got.PolicyVersion})
	}
	require.NoError(t, err)

	require.Equal(t, campaign.ApprovalWaiting, w.add(c.ID, "a").Approval.State)
	require.Equal(t, campaign.ApprovalWaiting, w.add(c.ID, "b").Approval.State)
	full("c")
	require.Len(t, w.rosterOf(c.ID), core.RecipientsPerPlaybook)
}
