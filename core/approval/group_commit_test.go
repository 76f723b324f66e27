package approval_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
)

// TestGroupCommitRacesEightWritersOverEightPlaybooks races 8 writers
// adding distinct people over 8 playbooks of one workspace, auto-approve on,
// against a balance that pays for 40 of the 80 gifts and half of the 41st:
// the group commits share the balance out. Exactly 40 gifts are paid, one
// debit each; the balance ends at what is left and equals its ledger; every
// answer agrees with what was stored (an auto_approved answer names the
// person's gift, a waiting one says low balance); gifts decided together
// were decided in queue order; and several gifts shared a transaction.
func TestGroupCommitRacesEightWritersOverEightPlaybooks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	// River works the held-back approval jobs too, as in serve.
	app, jobs := w.serverApp()

	const (
		unit      = 9_000 // the gourmet snack crate, all-in
		writers   = 8
		books     = 8
		perWriter = 10
		paid      = 40
	)
	var ids []string
	for range books {
		ids = append(ids, w.playbook("gourmet-snack-crate", 1_000_000, 10_000).ID)
	}
	w.env.TopUp(t, w.owner, paid*unit+unit/2)

	type answer struct {
		campaignID string
		res        approval.AddPersonResult
		err        error
	}
	var (
		mu      sync.Mutex
		answers []answer
		start   = make(chan struct{})
		adds    sync.WaitGroup
	)
	for wr := range writers {
		adds.Go(func() {
			<-start
			for i := range perWriter {
				id := ids[(wr+i)%books]
				res, err := app.Approvals.AddToPlaybook(ctx, w.key, id, approval.PlaybookPersonAdd{Recipient: newPerson(fmt.Sprintf("w%d-%d", wr, i))})
				mu.Lock()
				answers = append(answers, answer{campaignID: id, res: res, err: err})
				mu.Unlock()
			}
		})
	}
	began := time.Now()
	close(start)
	adds.Wait()
	took := time.Since(began)
	stopCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	require.NoError(t, jobs.Stop(stopCtx))
	workScheduled(t, app) // any the group left

	// Every add was answered, and every person decided.
	require.Len(t, answers, writers*perWriter)
	atOnce := 0
	for _, a := range answers {
		require.NoError(t, a.err)
		st, reason := w.state(a.campaignID, a.res.RecipientID)
		switch a.res.Approval.State {
		case campaign.ApprovalAutoApproved:
			atOnce++
			require.Equal(t, campaign.ApprovalAutoApproved, st)
			require.NotEmpty(t, a.res.Approval.SendID)
			g, err := app.Gifts.Get(ctx, w.key, a.res.Approval.SendID)
			require.NoError(t, err)
			require.Equal(t, a.res.RecipientID, g.RecipientID, "the answer names the person's own gift")
		case campaign.ApprovalWaiting:
			atOnce++
			require.Equal(t, campaign.ApprovalWaiting, st)
			require.Equal(t, campaign.ReasonLowBalance, a.res.Approval.Reason)
			require.Equal(t, campaign.ReasonLowBalance, reason)
			require.NotEmpty(t, a.res.TopUpURL, "a waiting answer says where to add funds")
		case campaign.ApprovalScheduled:
			require.Contains(t, []campaign.ApprovalState{campaign.ApprovalAutoApproved, campaign.ApprovalWaiting}, st, "decided later")
		default:
			t.Fatalf("answer %q", a.res.Approval.State)
		}
	}

	// The money: 40 gifts, one debit each, the half gift left, the
	// balance equal to its ledger and never below zero.
	require.Equal(t, paid, w.requireOneDebitPerGift())
	require.Equal(t, int64(unit/2), w.balance())
	var below int
	require.NoError(t, app.DB.QueryRow(ctx, `
		SELECT count(*) FROM (SELECT sum(cents) OVER (ORDER BY seq) AS running FROM ledger_entries
		WHERE workspace_id = $1 AND mode = 'test') r WHERE running < 0`, w.env.WorkspaceID).Scan(&below))
	require.Zero(t, below, "the ledger never ran below zero")
	var lowWaiting int
	require.NoError(t, app.DB.QueryRow(ctx, `
		SELECT count(*) FROM recipients WHERE campaign_id = ANY($1) AND approval_state = 'waiting' AND approval_reason = 'low_balance'`,
		ids).Scan(&lowWaiting))
	require.Equal(t, writers*perWriter-paid, lowWaiting, "everyone else waits for funds")

	// Gifts paid in one transaction were decided in queue order, and
	// groups formed: fewer transactions than gifts.
	var txs, outOfOrder int
	require.NoError(t, app.DB.QueryRow(ctx, `
		WITH paid AS (
		  SELECT e.xid, l.seq AS ledger_seq, r.queue_seq
		  FROM events e
		  JOIN ledger_entries l ON l.send_id = e.send_id AND l.kind = 'debit'
		  JOIN recipients r ON r.id = e.recipient_id
		  WHERE e.workspace_id = $1 AND e.type = 'send.created')
		SELECT (SELECT count(DISTINCT xid) FROM paid),
		       (SELECT count(*) FROM paid a JOIN paid b ON a.xid = b.xid AND a.ledger_seq < b.ledger_seq AND a.queue_seq > b.queue_seq)`,
		w.env.WorkspaceID).Scan(&txs, &outOfOrder))
	require.Zero(t, outOfOrder, "a group decides its people in queue order")
	require.Less(t, txs, paid, "gifts shared group commits")
	t.Logf("%d adds by %d writers over %d playbooks in %s (%.0f adds/s under -race): %d answered decided at once, %d gifts in %d transactions",
		len(answers), writers, books, took.Round(time.Millisecond), float64(len(answers))/took.Seconds(), atOnce, paid, txs)
}
