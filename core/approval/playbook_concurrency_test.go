package approval_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// TestPlaybookConcurrency races agents adding people (distinct ones, and
// the same externalId from several writers) to three playbooks with
// auto-approve on, owners approving waiting people and River working the
// approval jobs the adds insert, deciding scheduled people, near the balance and the monthly budgets. It
// then checks the money and the rosters.
func TestPlaybookConcurrency(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	// The playbooks' approval jobs run as serve runs them, while the adds
	// insert more.
	app, jobs := w.serverApp()

	// 9,000 a gift: the monthly budgets allow 10 + 8 + 6 = 24 gifts, the
	// balance 20. The third playbook's per-gift limit is below the price,
	// so its people wait for the owners.
	const unit = 9_000
	monthly := []int64{90_000, 72_000, 54_000}
	perGift := []int64{10_000, 10_000, 8_000}
	var ids []string
	for i, m := range monthly {
		ids = append(ids, w.playbook("gourmet-snack-crate", m, perGift[i]).ID)
	}
	w.env.TopUp(t, w.owner, 20*unit)

	const (
		adders        = 8
		approvers     = 2
		addsPerWriter = 30
		poolPerBook   = 24 // externalIds per playbook, shared by every writer
	)
	type addOutcome struct {
		campaign, ext string
		res           approval.AddPersonResult
		busy          bool
		took          time.Duration
	}
	var (
		mu       sync.Mutex
		outcomes []addOutcome
		waiting  []approval.QueueDecision
		approved = map[string]bool{} // gifts owners created
		refusals = map[core.Code]int{}
		unexpect []error
		stop     = make(chan struct{})
		start    = make(chan struct{})
	)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		unexpect = append(unexpect, err)
	}

	var adds sync.WaitGroup
	for wr := range adders {
		adds.Go(func() {
			<-start
			rng := rand.New(rand.NewPCG(uint64(wr), 7))
			for range addsPerWriter {
				book := rng.IntN(len(ids))
				ext := fmt.Sprintf("b%d-%d", book, rng.IntN(poolPerBook))
				in := campaign.RecipientInput{Name: "Person " + ext, SourceSystem: "crm", ExternalID: ext, Email: ext + "@example.com"}
				t0 := time.Now()
				res, err := app.Approvals.AddToPlaybook(ctx, w.key, ids[book], approval.PlaybookPersonAdd{Recipient: in})
				o := addOutcome{campaign: ids[book], ext: ext, res: res, took: time.Since(t0)}
				switch {
				case core.ErrorCode(err) == core.CodePlaybookBusy:
					o.busy = true
				case err != nil:
					fail(fmt.Errorf("add %s: %w", ext, err))
					continue
				case res.Approval.State == "":
					fail(fmt.Errorf("add %s answered no state", ext))
				}
				mu.Lock()
				outcomes = append(outcomes, o)
				if !o.busy && res.Approval.State == campaign.ApprovalWaiting {
					waiting = append(waiting, approval.QueueDecision{CampaignID: ids[book], RecipientID: res.RecipientID})
				}
				mu.Unlock()
			}
		})
	}
	var others sync.WaitGroup
	for ap := range approvers {
		others.Go(func() {
			<-start
			rng := rand.New(rand.NewPCG(uint64(100+ap), 9))
			for {
				select {
				case <-stop:
					return
				default:
				}
				mu.Lock()
				var d approval.QueueDecision
				if len(waiting) > 0 {
					d = waiting[rng.IntN(len(waiting))]
				}
				mu.Unlock()
				if d.RecipientID == "" {
					time.Sleep(time.Millisecond)
					continue
				}
				g, err := app.Approvals.ApproveGift(ctx, w.owner, d)
				mu.Lock()
				switch c := core.ErrorCode(err); c {
				case "":
					if !g.AutoApproved {
						approved[g.ID] = true // approving again returns the same gift
					}
				case core.CodeBudgetCap, core.CodeInsufficientBalance:
					refusals[c]++
				default:
					unexpect = append(unexpect, fmt.Errorf("approve %s: %w", d.RecipientID, err))
				}
				mu.Unlock()
			}
		})
	}
	// A slow writer holds each playbook once for longer than an add tries
	// (3 x 250 ms), so adds to it meanwhile lose every race.
	others.Go(func() {
		<-start
		for i := range ids {
			select {
			case <-stop:
				return
			default:
			}
			tx, err := app.DB.Begin(ctx)
			if err != nil {
				fail(err)
				return
			}
			if _, err := db.New(tx).CampaignGetForUpdate(ctx, db.CampaignGetForUpdateParams{WorkspaceID: w.env.WorkspaceID, ID: ids[i%len(ids)]}); err != nil {
				fail(err)
			}
			select {
			case <-stop:
			case <-time.After(1500 * time.Millisecond):
			}
			_ = tx.Rollback(ctx)
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	})

	began := time.Now()
	close(start)
	adds.Wait()
	elapsed := time.Since(began)
	close(stop)
	others.Wait()
	stopCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	require.NoError(t, jobs.Stop(stopCtx))
	require.Empty(t, unexpect)
	for _, j := range apptest.JobsIn(t, app, campaign.ScheduledApprovalArgs{}.Kind()) {
		require.Empty(t, j.Errors, "approval job %d failed", j.ID)
	}
	scheduledLeft := 0
	for _, o := range outcomes {
		if !o.busy && o.res.Approval.State == campaign.ApprovalScheduled {
			scheduledLeft++
		}
	}
	// The jobs queued while River stopped.
	workScheduled(t, app)
	checks := 0
	pass := func() { checks++ }

	// Every add was answered with a state or PLAYBOOK_BUSY.
	require.Len(t, outcomes, adders*addsPerWriter)
	pass()

	// Money: one debit per gift and a gift per debit, balance = ledger >= 0.
	gifts := w.requireOneDebitPerGift()
	pass()
	require.GreaterOrEqual(t, w.balance(), int64(0))
	pass()

	// Each playbook stayed within its monthly budget; the rosters hold
	// each person once with at most one gift, and the states agree with
	// the gifts.
	onRoster := map[string]map[string]string{} // campaign -> externalId -> recipientId
	totalPeople, scheduledNow := 0, 0
	for i, id := range ids {
		c, err := app.Campaigns.GetCampaign(ctx, w.key, id)
		require.NoError(t, err)
		require.LessOrEqual(t, c.SpentCents, monthly[i], "playbook %d spent over its monthly budget", i)
		onRoster[id] = map[string]string{}
		gifted := 0
		for _, r := range c.Recipients {
			_, dup := onRoster[id][r.ExternalID]
			require.False(t, dup, "%s is on playbook %d twice", r.ExternalID, i)
			onRoster[id][r.ExternalID] = r.RecipientID
			st, reason := w.state(id, r.RecipientID)
			switch st {
			case campaign.ApprovalApproved, campaign.ApprovalAutoApproved:
				require.NotEmpty(t, r.SendID, "%s is %s without a gift", r.RecipientID, st)
				gifted++
			case campaign.ApprovalWaiting:
				require.Empty(t, r.SendID)
				require.True(t, reason.Valid(), "waiting with reason %q", reason)
			case campaign.ApprovalScheduled:
				scheduledNow++
			default:
				t.Fatalf("%s is %s", r.RecipientID, st)
			}
		}
		require.Equal(t, c.SentCount, gifted, "one gift per approved person on playbook %d", i)
		totalPeople += len(c.Recipients)
	}
	require.Zero(t, scheduledNow, "the approval jobs decided every scheduled person")
	pass()
	pass()

	// A busy add saved nothing: its person is absent unless another add of
	// them succeeded.
	saved := map[string]bool{}
	busy := 0
	for _, o := range outcomes {
		if !o.busy {
			saved[o.campaign+"/"+o.ext] = true
			require.Equal(t, onRoster[o.campaign][o.ext], o.res.RecipientID, "an answered add names the person on the roster")
		}
	}
	for _, o := range outcomes {
		if o.busy {
			busy++
			if !saved[o.campaign+"/"+o.ext] {
				require.NotContains(t, onRoster[o.campaign], o.ext, "a busy add saved %s", o.ext)
			}
		}
	}

	var took []time.Duration
	for _, o := range outcomes {
		took = append(took, o.took)
	}
	slices.Sort(took)
	autoApproved := len(w.events(core.EventSendAutoApproved))
	approvals := len(approved)
	require.Equal(t, gifts, autoApproved+approvals, "every gift was approved once, by auto-approve or an owner")
	pass()
	t.Logf("add latency under -race: median %s, p90 %s, max %s", took[len(took)/2].Round(time.Millisecond),
		took[len(took)*9/10].Round(time.Millisecond), took[len(took)-1].Round(time.Millisecond))
	t.Logf("%d adds by %d writers in %s (a slow writer held each playbook once for 1.5 s): %.0f adds/s; busy %d (%.1f%%); %d people on 3 rosters; %d gifts (%d auto-approved, %d approved by owners); "+
		"%d adds answered scheduled; owner refusals %v; balance left %d; %d invariant checks passed",
		len(outcomes), adders, elapsed.Round(time.Millisecond), float64(len(outcomes))/elapsed.Seconds(), busy,
		100*float64(busy)/float64(len(outcomes)), totalPeople, gifts, autoApproved, approvals, scheduledLeft, refusals, w.balance(), checks)
	require.Positive(t, busy, "the slow writer made some adds busy")
}
