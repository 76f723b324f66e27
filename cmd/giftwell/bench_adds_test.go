package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
)

// benchUnitCents is what a gift of benchProduct costs; a playbook's
// budgets and the balance are set for every add to be auto-approved.
const (
	benchProduct   = "gourmet-snack-crate"
	benchUnitCents = 9_000
)

// adder adds person in to playbook id through one face and returns the
// approval state answered, or errBusy for PLAYBOOK_BUSY with its retryAfterMs.
type adder func(ctx context.Context, id string, in campaign.RecipientInput) (campaign.ApprovalState, error)

// errBusy is a PLAYBOOK_BUSY answer: the add is sent again after wait.
type errBusy struct{ wait time.Duration }

func (e errBusy) Error() string { return "PLAYBOOK_BUSY" }

// refusal reads an error envelope: errBusy for PLAYBOOK_BUSY, else an error naming what answered.
func refusal(what string, body []byte) error {
	var env struct {
		Code         string `json:"code"`
		RetryAfterMs int64  `json:"retryAfterMs"`
	}
	if json.Unmarshal(body, &env) == nil && env.Code == string(core.CodePlaybookBusy) {
		return errBusy{wait: time.Duration(env.RetryAfterMs) * time.Millisecond}
	}
	return fmt.Errorf("%s: %s", what, body)
}

// mcpAdders are benchWriters adders, each on its own MCP session.
func (s *benchSite) mcpAdders(b *testing.B) []adder {
	out := make([]adder, benchWriters)
	for i := range out {
		cs := s.mcp(b)
		out[i] = func(ctx context.Context, id string, in campaign.RecipientInput) (campaign.ApprovalState, error) {
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "add_to_playbook", Arguments: map[string]any{"id": id, "recipient": in}})
			if err != nil {
				return "", err
			}
			var out struct {
				Data approval.AddPersonResult `json:"data"`
			}
			raw, _ := json.Marshal(res.StructuredContent)
			if res.IsError || json.Unmarshal(raw, &out) != nil || out.Data.Approval.State == "" {
				return "", refusal("add_to_playbook", raw)
			}
			return out.Data.Approval.State, nil
		}
	}
	return out
}

// restAdders are benchWriters adders over REST (POST /playbooks/{id}/people).
func (s *benchSite) restAdders() []adder {
	hc := &http.Client{Transport: s.tr}
	out := make([]adder, benchWriters)
	for i := range out {
		out[i] = func(_ context.Context, id string, in campaign.RecipientInput) (campaign.ApprovalState, error) {
			status, body := s.rest(hc, http.MethodPost, "/playbooks/"+id+"/people", map[string]any{"recipient": in})
			var env struct {
				Data approval.AddPersonResult `json:"data"`
			}
			if status != http.StatusOK || json.Unmarshal(body, &env) != nil || env.Data.Approval.State == "" {
				return "", refusal(fmt.Sprintf("POST /playbooks/%s/people: %d", id, status), body)
			}
			return env.Data.Approval.State, nil
		}
	}
	return out
}

// playbooks creates enough active playbooks with auto-approve on for n
// adds (2,000 people each) and tops the balance up to pay for every gift.
func (s *benchSite) playbooks(b *testing.B, n int) []string {
	return s.playbooksFor(b, (n+core.RecipientsPerPlaybook-1)/core.RecipientsPerPlaybook, n)
}

// playbooksFor creates count active playbooks with auto-approve on and
// tops the balance up to pay for n gifts.
func (s *benchSite) playbooksFor(b *testing.B, count, n int) []string {
	b.Helper()
	ctx := context.Background()
	var ids []string
	for range count {
		c, err := s.app.Campaigns.CreateCampaign(ctx, s.owner, campaign.CampaignInput{
			Name: "Closed-won thanks", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: benchProduct,
			SenderName: "Sam Seller", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!", MonthlyBudgetCents: campaign.MaxMonthlyBudgetCents,
		})
		if err != nil {
			b.Fatal(err)
		}
		perGift := int64(10_000)
		if _, err := s.app.Approvals.SetAutoApprove(ctx, s.owner, c.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: &perGift}); err != nil {
			b.Fatal(err)
		}
		ids = append(ids, c.ID)
	}
	for need := int64(n) * benchUnitCents; need > 0; need -= 2_000_000 {
		s.env.TopUp(b, s.owner, 2_000_000)
	}
	return ids
}

// addRun is what runAdds measured.
type addRun struct {
	took time.Duration
	// done are the moments each add was answered, from the start, in order.
	done   []time.Duration
	states map[campaign.ApprovalState]int
	// busy counts PLAYBOOK_BUSY answers (each add is sent again until answered).
	busy int
	// latency is each add's own time until answered, retries included, sorted.
	latency []time.Duration
}

// inTurn sends person k to playbook ids[k/2000]: each playbook is filled
// before the next.
func inTurn(ids []string) func(k int) string {
	return func(k int) string { return ids[k/core.RecipientsPerPlaybook] }
}

// roundRobin sends person k to playbook ids[k%len(ids)]: every playbook
// takes adds at once.
func roundRobin(ids []string) func(k int) string {
	return func(k int) string { return ids[k%len(ids)] }
}

// runAdds adds n distinct people, person k to playbook pick(k), with one
// writer per adder at once.
func runAdds(b *testing.B, adders []adder, pick func(k int) string, n int) addRun {
	b.Helper()
	ctx := context.Background()
	var (
		next atomic.Int64
		mu   sync.Mutex
		wg   sync.WaitGroup
		run  = addRun{states: map[campaign.ApprovalState]int{}}
	)
	tag := core.RandomHex(4)
	start := time.Now()
	for _, add := range adders {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= n {
					return
				}
				in := campaign.RecipientInput{Name: fmt.Sprintf("Person %d", k), SourceSystem: "crm", ExternalID: fmt.Sprintf("%s-%d", tag, k)}
				t0 := time.Now()
				state, err := add(ctx, pick(k), in)
				for busy := (errBusy{}); errors.As(err, &busy); {
					mu.Lock()
					run.busy++
					mu.Unlock()
					time.Sleep(busy.wait)
					state, err = add(ctx, pick(k), in)
				}
				end := time.Now()
				if err != nil {
					b.Error(err)
					return
				}
				mu.Lock()
				run.states[state]++
				run.done = append(run.done, end.Sub(start))
				run.latency = append(run.latency, end.Sub(t0))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	run.took = time.Since(start)
	slices.Sort(run.done)
	slices.Sort(run.latency)
	return run
}

// report reports run's rate, latency and answers.
func (run addRun) report(b *testing.B) {
	n := len(run.latency)
	if n == 0 {
		return
	}
	b.ReportMetric(float64(n)/run.took.Seconds(), "adds/s")
	b.ReportMetric(float64(run.latency[n/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(run.latency[n*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(100*float64(run.states[campaign.ApprovalAutoApproved])/float64(n), "decided-%")
	b.ReportMetric(100*float64(run.states[campaign.ApprovalScheduled])/float64(n), "scheduled-%")
	b.ReportMetric(float64(run.busy), "busy")
}

// settle waits (up to a minute) until the approval jobs decided every
// scheduled person of ids, reports how long that took after the adds, and
// checks that everyone is auto-approved and the money holds.
func (s *benchSite) settle(b *testing.B, ids []string, people int) {
	b.Helper()
	ctx := context.Background()
	start := time.Now()
	left := -1
	for time.Since(start) < time.Minute {
		if err := s.app.DB.QueryRow(ctx, `SELECT count(*) FROM recipients WHERE campaign_id = ANY($1) AND approval_state <> 'auto_approved'`, ids).Scan(&left); err != nil {
			b.Fatal(err)
		}
		if left == 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.ReportMetric(time.Since(start).Seconds(), "settle-s")
	if left != 0 {
		b.Fatalf("%d people still not auto-approved a minute after the adds", left)
	}
	var gifts, orphanGifts, orphanDebits, below int
	var stored, sum int64
	if err := s.app.DB.QueryRow(ctx, `
		SELECT
		  (SELECT count(*) FROM sends WHERE campaign_id = ANY($2)),
		  (SELECT count(*) FROM sends s WHERE s.workspace_id = $1 AND s.funded_by = 'balance'
		     AND (SELECT count(*) FROM ledger_entries l WHERE l.send_id = s.id AND l.kind = 'debit' AND l.cents = -s.total_cents) <> 1),
		  (SELECT count(*) FROM ledger_entries l WHERE l.workspace_id = $1 AND l.kind = 'debit'
		     AND NOT EXISTS (SELECT 1 FROM sends s WHERE s.id = l.send_id)),
		  (SELECT count(*) FROM (SELECT sum(cents) OVER (ORDER BY seq) AS running FROM ledger_entries
		     WHERE workspace_id = $1 AND mode = 'test') r WHERE running < 0),
		  (SELECT coalesce(sum(cents), 0) FROM ledger_entries WHERE workspace_id = $1 AND mode = 'test'),
		  (SELECT cents FROM balances WHERE workspace_id = $1 AND mode = 'test')`, s.env.WorkspaceID, ids).
		Scan(&gifts, &orphanGifts, &orphanDebits, &below, &sum, &stored); err != nil {
		b.Fatal(err)
	}
	if gifts != people || orphanGifts != 0 || orphanDebits != 0 || below != 0 || sum != stored {
		b.Fatalf("invariant broken: %d gifts for %d people, %d gifts without one debit, %d debits without a gift, ledger below zero %d times, balance %d vs ledger %d",
			gifts, people, orphanGifts, orphanDebits, below, stored, sum)
	}
}

// benchAdds runs b.N adds through adders on fresh playbooks (enough for
// b.N people, and at least spread of them, each add to the next in turn
// when spread > 1) and reports the run beside the bare server's SELECT 1
// with as many callers and beside the debit floor, with the process's RSS
// after the adds.
func benchAdds(b *testing.B, s *benchSite, adders []adder, spread int) {
	var ids []string
	var pick func(int) string
	if spread > 1 {
		ids = s.playbooksFor(b, max(spread, (b.N+core.RecipientsPerPlaybook-1)/core.RecipientsPerPlaybook), b.N)
		pick = roundRobin(ids)
	} else {
		ids = s.playbooks(b, b.N)
		pick = inTurn(ids)
	}
	b.ResetTimer()
	s.queries.restartStatements()
	before := s.queries.n.Load()
	run := runAdds(b, adders, pick, b.N)
	b.StopTimer()
	adding := s.queries.n.Load() - before
	run.report(b)
	reportRSS(b)
	s.reportBeside(b, run.took, b.N, len(adders))
	s.reportQueries(b, s.queries.n.Load()-adding, func() { s.settle(b, ids, b.N) }, b.N, "queries/add")
	s.queries.printStatements(b, b.N)
	// After the approval jobs settled, so that the floor has the balance
	// row to itself.
	s.reportFloor(b, float64(len(run.latency))/run.took.Seconds())
}

// BenchmarkMCPAddToPlaybook adds distinct people with 8 writers at once
// over MCP (tools/call add_to_playbook) to active playbooks with
// auto-approve on and ample balance, beside 8 callers of the bare
// server's SELECT 1; then waits for the approval jobs and checks the money.
func BenchmarkMCPAddToPlaybook(b *testing.B) {
	s := newBenchSite(b)
	benchAdds(b, s, s.mcpAdders(b), 1)
}

// BenchmarkRESTAddToPlaybook is BenchmarkMCPAddToPlaybook over REST.
func BenchmarkRESTAddToPlaybook(b *testing.B) {
	s := newBenchSite(b)
	benchAdds(b, s, s.restAdders(), 1)
}

// BenchmarkMCPAddTo8Playbooks is BenchmarkMCPAddToPlaybook with the adds
// spread over 8 playbooks of one workspace, each add to the next in turn:
// every auto-approval pays from the one balance at once.
func BenchmarkMCPAddTo8Playbooks(b *testing.B) {
	s := newBenchSite(b)
	benchAdds(b, s, s.mcpAdders(b), 8)
}

// BenchmarkMCPAddOneWriter is BenchmarkMCPAddToPlaybook with one writer:
// an add's own time when nothing else runs (its p50-ms).
func BenchmarkMCPAddOneWriter(b *testing.B) {
	s := newBenchSite(b)
	benchAdds(b, s, s.mcpAdders(b)[:1], 1)
}

// BenchmarkAddToPlaybookFill2000 fills one playbook to its 2,000 people
// with 8 MCP writers per iteration and reports the add rate while the
// roster held 0-500, 500-1,000, 1,000-1,500 and 1,500-2,000 people, beside
// the bare server's SELECT 1 for as many calls.
func BenchmarkAddToPlaybookFill2000(b *testing.B) {
	s := newBenchSite(b)
	adders := s.mcpAdders(b)
	const full = core.RecipientsPerPlaybook
	for range b.N {
		b.StopTimer()
		ids := s.playbooks(b, full)
		b.StartTimer()
		run := runAdds(b, adders, inTurn(ids), full)
		b.StopTimer()
		run.report(b)
		for _, seg := range [][2]int{{0, 500}, {500, 1000}, {1000, 1500}, {1500, 2000}} {
			from := time.Duration(0)
			if seg[0] > 0 {
				from = run.done[seg[0]-1]
			}
			b.ReportMetric(float64(seg[1]-seg[0])/(run.done[seg[1]-1]-from).Seconds(), fmt.Sprintf("adds/s@%d-%d", seg[0], seg[1]))
		}
		s.reportBeside(b, run.took, full, benchWriters)
		s.settle(b, ids, full)
		b.StartTimer()
	}
}
