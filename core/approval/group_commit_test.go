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
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/internal/apptest"
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
	keyName := w.keyName()
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
			require.Equal(t, &gift.PreparedBy{Kind: gift.PreparedByKey, Name: keyName, PersonEmail: w.env.OwnerEmail}, g.PreparedBy, "the trail names who added them")
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
	var told int
	require.NoError(t, app.DB.QueryRow(ctx, `
		SELECT count(*) FROM events e JOIN sends s ON s.id = e.send_id
		WHERE e.workspace_id = $1 AND e.type IN ('send.created', 'send.auto_approved')
		  AND e.data->>'sendId' = s.id AND e.data->>'recipientId' = s.recipient_id AND (e.data->>'totalCents')::bigint = s.total_cents`,
		w.env.WorkspaceID).Scan(&told))
	require.Equal(t, 2*paid, told, "each gift's two events, recorded together, say what they report")
	require.Less(t, txs, paid, "gifts shared group commits")
	t.Logf("%d adds by %d writers over %d playbooks in %s (%.0f adds/s under -race): %d answered decided at once, %d gifts in %d transactions",
		len(answers), writers, books, took.Round(time.Millisecond), float64(len(answers))/took.Seconds(), atOnce, paid, txs)
}

// A person left scheduled by a process that stopped before its group
// decided them is found by the minute's sweep once a minute old (its
// playbook's approval job queued, once), not before; the job decides them.
func TestSweepQueuesTheJobOfPeopleLeftScheduled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 1_000_000, 0)
	w.env.TopUp(t, w.owner, 50_000)
	left := w.add(c.ID, "left")
	require.Equal(t, campaign.ApprovalWaiting, left.Approval.State, "auto-approve off")
	w.autoApprove(c.ID, 10_000)

	// As an add leaves them for its group, which never ran.
	leave := func(ago time.Duration) {
		_, err := app.DB.Exec(ctx, `UPDATE recipients SET approval_state = 'scheduled', approval_reason = '', updated_at = $2 WHERE id = $1`,
			left.RecipientID, apptest.Epoch.Add(-ago))
		require.NoError(t, err)
	}
	kind := campaign.ScheduledApprovalArgs{}.Kind()
	leave(30 * time.Second)
	n, err := app.Approvals.RequeueStaleScheduled(ctx)
	require.NoError(t, err)
	require.Zero(t, n, "half a minute: a group may still decide them")
	require.Empty(t, apptest.Jobs(t, app, kind))

	leave(2 * time.Minute)
	n, err = app.Approvals.RequeueStaleScheduled(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	n, err = app.Approvals.RequeueStaleScheduled(ctx)
	require.NoError(t, err)
	require.Zero(t, n, "the job is queued once")
	require.Equal(t, 1, w.runScheduled())
	st, _ := w.state(c.ID, left.RecipientID)
	require.Equal(t, campaign.ApprovalAutoApproved, st)
	require.Equal(t, 1, w.requireOneDebitPerGift())
}

// TestGroupCommitGiftsAPersonOnceAcrossPlaybooks races 8 writers, each
// adding the same 10 people (by email, sourceSystem+externalId) to a
// playbook of its own, auto-approve on, with funds for all: a group
// decides people of several playbooks at once, and one of them may be
// the same person as another the same group just paid for. Each person
// gets one gift; everyone else waits as a repeat for a person's review.
func TestGroupCommitGiftsAPersonOnceAcrossPlaybooks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app, jobs := w.serverApp()

	const (
		unit    = 9_000
		writers = 8
		people  = 10
	)
	var ids []string
	for range writers {
		ids = append(ids, w.playbook("gourmet-snack-crate", 1_000_000, 10_000).ID)
	}
	w.env.TopUp(t, w.owner, writers*people*unit)
	start := make(chan struct{})
	var adds sync.WaitGroup
	for wr := range writers {
		adds.Go(func() {
			<-start
			for i := range people {
				_, err := app.Approvals.AddToPlaybook(ctx, w.key, ids[wr], approval.PlaybookPersonAdd{Recipient: newPerson(fmt.Sprint(i))})
				require.NoError(t, err)
			}
		})
	}
	close(start)
	adds.Wait()
	stopCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	require.NoError(t, jobs.Stop(stopCtx))
	workScheduled(t, app)

	var gifted, twice, repeats int
	require.NoError(t, app.DB.QueryRow(ctx, `
		SELECT count(DISTINCT recipient_email),
		       (SELECT count(*) FROM (SELECT 1 FROM sends WHERE workspace_id = $1 GROUP BY recipient_email HAVING count(*) > 1) d),
		       (SELECT count(*) FROM recipients WHERE campaign_id = ANY($2) AND approval_state = 'waiting' AND approval_reason = 'repeat_review')
		FROM sends WHERE workspace_id = $1`, w.env.WorkspaceID, ids).Scan(&gifted, &twice, &repeats))
	require.Equal(t, people, gifted, "everyone got a gift")
	require.Zero(t, twice, "nobody got two")
	require.Equal(t, (writers-1)*people, repeats, "the rest wait as repeats")
	require.Equal(t, people, w.requireOneDebitPerGift())
}

// An add decides its person with the balance's lock, taken last; the
// person's prior gift, read in its first statement, may be older than
// that: the same person added to another playbook at the same moment, by
// another instance, was paid for meanwhile. The decision reads it again
// under the lock, so the person waits as a repeat instead of getting a
// second gift.
func TestADecisionReadsThePriorGiftUnderTheBalanceLock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	first, second, a, b := w.scheduledOnTwoPlaybooks()

	st, _, err := w.env.App.Approvals.DecideAsAnAddForTest(ctx, w.key, first, a.RecipientID)
	require.NoError(t, err)
	require.Equal(t, campaign.ApprovalAutoApproved, st)
	st, reason, err := w.env.App.Approvals.DecideAsAnAddForTest(ctx, w.key, second, b.RecipientID)
	require.NoError(t, err)
	require.Equal(t, campaign.ApprovalWaiting, st, "no second gift")
	require.Equal(t, campaign.ReasonRepeatReview, reason)
	require.Equal(t, 1, w.requireOneDebitPerGift())
}

// A person's approval takes the balance's lock before it reads their
// prior gift: a gift for the same person through another playbook,
// being paid while the approval starts, makes it a repeat to review
// (REPEAT_REVIEW_REQUIRED), not a second gift.
func TestAnApprovalReadsThePriorGiftUnderTheBalanceLock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	first, second, a, b := w.scheduledOnTwoPlaybooks()

	// The first playbook pays for the person, and holds the balance.
	paying, err := w.env.App.DB.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = paying.Rollback(ctx) }()
	st, _, err := w.env.App.Approvals.DecideAsAnAddInTxForTest(ctx, paying, w.key, first, a.RecipientID)
	require.NoError(t, err)
	require.Equal(t, campaign.ApprovalAutoApproved, st)

	approved := make(chan error, 1)
	go func() {
		_, err := w.env.App.Approvals.ApproveGift(ctx, w.owner, approval.QueueDecision{CampaignID: second, RecipientID: b.RecipientID})
		approved <- err
	}()
	require.Eventually(t, func() bool {
		var waiting bool
		require.NoError(t, w.env.App.DB.QueryRow(ctx,
			`SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock')`).Scan(&waiting))
		return waiting
	}, 10*time.Second, 5*time.Millisecond, "the approval waits for the balance")
	require.NoError(t, paying.Commit(ctx))

	err = <-approved
	require.Error(t, err)
	require.Equal(t, core.CodeRepeatReviewRequired, core.ErrorCode(err))
	require.Equal(t, 1, w.requireOneDebitPerGift())
}

// scheduledOnTwoPlaybooks adds the same person to two auto-approve
// playbooks, first and second, of a funded workspace while the balance is
// held, so that both adds leave them scheduled (a and b), and lets the
// balance go.
func (w *playbooks) scheduledOnTwoPlaybooks() (first, second string, a, b approval.AddPersonResult) {
	w.t.Helper()
	first = w.playbook("gourmet-snack-crate", 1_000_000, 10_000).ID
	second = w.playbook("gourmet-snack-crate", 1_000_000, 10_000).ID
	w.env.TopUp(w.t, w.owner, 100_000)
	hold := w.holdBalance()
	a, b = w.add(first, "same"), w.add(second, "same")
	require.Equal(w.t, campaign.ApprovalScheduled, a.Approval.State)
	require.Equal(w.t, campaign.ApprovalScheduled, b.Approval.State)
	require.NoError(w.t, hold.Rollback(context.Background()))
	return first, second, a, b
}
