package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// The benchmark suite of `make bench` (docs/performance.md): the whole
// server as serve runs it (routes, with every job worker) on one pool, and
// beside it, on the same pool in the same run, a bare go-sdk stateless
// server answering SELECT 1 (apptest.BareSelect1). Each benchmark reports
// its own figure, the bare server's for the same calls, and the ratio.
// Figures are printed, never asserted; the money invariant is checked.

// benchWriters is how many agents add people at once.
const benchWriters = 8

// benchSite is the server under benchmark and its bare neighbour.
type benchSite struct {
	env   *apptest.Env
	app   *giftwell.App
	url   string // the server's base URL
	bare  string // the bare server's URL
	tr    *http.Transport
	owner core.Principal
	// queries counts the statements sent on the pool (each a database
	// round trip; a batch counts once), the server's and its jobs'.
	queries *queryCounter
}

// queryCounter is a pgx tracer counting the statements a pool sends (a
// batch and a copy count once each). With
// GIFTWELL_BENCH_STATEMENTS=1 it also counts them by their first line
// (sqlc's "-- name: …"), printed by printStatements.
type queryCounter struct {
	n      atomic.Int64
	mu     sync.Mutex
	byName map[string]int
	// took is the time spent by name, from a statement's (or batch's)
	// start to its end, as the client saw it.
	took map[string]time.Duration
}

// startedKey carries a traced statement's name and start.
type startedKey struct{}

// started is a traced statement's name and start.
type started struct {
	name string
	at   time.Time
}

// TraceQueryStart counts one statement.
func (c *queryCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	if c.byName != nil {
		name, _, _ := strings.Cut(strings.TrimSpace(d.SQL), "\n")
		name = core.Clip(name, 80)
		c.mu.Lock()
		c.byName[name]++
		c.mu.Unlock()
		return context.WithValue(ctx, startedKey{}, started{name: name, at: time.Now()})
	}
	return ctx
}

// ended adds the time since the statement in ctx started to its name's.
func (c *queryCounter) ended(ctx context.Context) {
	if st, ok := ctx.Value(startedKey{}).(started); ok {
		c.mu.Lock()
		c.took[st.name] += time.Since(st.at)
		c.mu.Unlock()
	}
}

// restartStatements starts the count by name again.
func (c *queryCounter) restartStatements() {
	c.mu.Lock()
	clear(c.byName)
	clear(c.took)
	c.mu.Unlock()
}

// printStatements prints the statements counted by name, most first, per
// each of n operations, and starts the count again.
func (c *queryCounter) printStatements(b *testing.B, n int) {
	if c.byName == nil || n == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	names := slices.SortedFunc(maps.Keys(c.byName), func(x, y string) int { return c.byName[y] - c.byName[x] })
	b.Logf("%6s  %8s  %s", "per op", "ms/op", "statement (first line)")
	for _, name := range names {
		b.Logf("%6.2f  %8.3f  %s", float64(c.byName[name])/float64(n), c.took[name].Seconds()*1000/float64(n), name)
	}
	clear(c.byName)
	clear(c.took)
}

// TraceQueryEnd adds the statement's time to its name's.
func (c *queryCounter) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryEndData) {
	c.ended(ctx)
}

// TraceBatchStart counts a batch as one round trip.
func (c *queryCounter) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	c.n.Add(1)
	if c.byName != nil {
		c.mu.Lock()
		c.byName["(a batch)"]++
		c.mu.Unlock()
		return context.WithValue(ctx, startedKey{}, started{name: "(a batch)", at: time.Now()})
	}
	return ctx
}

// TraceBatchQuery counts a batch's statement by name, marked as riding in
// a batch (not a round trip of its own).
func (c *queryCounter) TraceBatchQuery(_ context.Context, _ *pgx.Conn, d pgx.TraceBatchQueryData) {
	if c.byName != nil {
		name, _, _ := strings.Cut(strings.TrimSpace(d.SQL), "\n")
		c.mu.Lock()
		c.byName["  in a batch: "+core.Clip(name, 66)]++
		c.mu.Unlock()
	}
}

// TraceCopyFromStart counts a copy (a person's insert) as one round trip.
func (c *queryCounter) TraceCopyFromStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceCopyFromStartData) context.Context {
	c.n.Add(1)
	if c.byName != nil {
		name := "COPY " + d.TableName.Sanitize()
		c.mu.Lock()
		c.byName[name]++
		c.mu.Unlock()
		return context.WithValue(ctx, startedKey{}, started{name: name, at: time.Now()})
	}
	return ctx
}

// TraceCopyFromEnd adds the copy's time to its name's.
func (c *queryCounter) TraceCopyFromEnd(ctx context.Context, _ *pgx.Conn, _ pgx.TraceCopyFromEndData) {
	c.ended(ctx)
}

// TraceBatchEnd adds the batch's time to the batches'.
func (c *queryCounter) TraceBatchEnd(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchEndData) {
	c.ended(ctx)
}

// reportQueries runs then (which may be nil) and reports the statements
// counted since from per op.
func (s *benchSite) reportQueries(b *testing.B, from int64, then func(), ops int, unit string) {
	if then != nil {
		then()
	}
	b.ReportMetric(float64(s.queries.n.Load()-from)/float64(ops), unit)
}

func newBenchSite(b *testing.B) *benchSite {
	b.Helper()
	ctx := context.Background()
	env := apptest.New(b)
	// The test pool has 4 connections; a server's is larger.
	cfg := env.App.DB.Config().Copy()
	cfg.MaxConns = 24
	queries := &queryCounter{}
	if os.Getenv("GIFTWELL_BENCH_STATEMENTS") == "1" {
		queries.byName, queries.took = map[string]int{}, map[string]time.Duration{}
	}
	if cfg.ConnConfig.Tracer != nil {
		b.Fatal("the test pool already has a tracer")
	}
	cfg.ConnConfig.Tracer = queries
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	app := giftwell.New(pool, env.App.Config, env.Clock, nil)
	app.Ledger.Payments = env.App.Ledger.Payments
	j, err := newJobs(pool, slog.New(slog.DiscardHandler), app, &outbox{})
	if err != nil {
		b.Fatal(err)
	}
	if err := j.Start(ctx); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		stop, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = j.Stop(stop)
	})
	srv := httptest.NewServer(routes(app, slog.New(slog.DiscardHandler)))
	b.Cleanup(srv.Close)
	_, owner := env.SignIn(b, env.OwnerEmail)
	return &benchSite{env: env, app: app, url: srv.URL, bare: apptest.BareSelect1(b, pool), tr: apptest.BenchTransport(), owner: owner, queries: queries}
}

// mcp is an MCP session with the owner's key.
func (s *benchSite) mcp(b *testing.B) *sdk.ClientSession {
	return apptest.MCPSession(b, s.url+"/mcp", s.env.OwnerKey, s.tr)
}

// bareCalls makes n calls of the bare server's SELECT 1 from workers
// sessions at once and returns how long they took.
func (s *benchSite) bareCalls(b *testing.B, n, workers int) time.Duration {
	b.Helper()
	sessions := make([]*sdk.ClientSession, workers)
	for i := range sessions {
		sessions[i] = apptest.MCPSession(b, s.bare, "", s.tr)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for _, cs := range sessions {
		wg.Go(func() {
			for next.Add(1) <= int64(n) {
				res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: apptest.BareSelect1Tool, Arguments: map[string]any{}})
				if err != nil || res.IsError {
					b.Errorf("bare call: %v %v", err, res)
					return
				}
			}
		})
	}
	wg.Wait()
	return time.Since(start)
}

// reportBeside reports the bare server's time per call for the same n
// calls (workers at once) and the ratio of took to it.
func (s *benchSite) reportBeside(b *testing.B, took time.Duration, n, workers int) {
	b.StopTimer()
	bare := s.bareCalls(b, n, workers)
	b.ReportMetric(float64(bare.Nanoseconds())/float64(n), "bare-ns/call")
	b.ReportMetric(float64(took)/float64(bare), "x-bare")
}

// BenchmarkMCPGetBalance calls get_balance through the MCP face with a
// key, one call at a time: authentication, the wrapper's checks, the
// balance read and the envelope, beside the bare server's SELECT 1.
func BenchmarkMCPGetBalance(b *testing.B) {
	s := newBenchSite(b)
	cs := s.mcp(b)
	ctx := context.Background()
	b.ResetTimer()
	start, queries := time.Now(), s.queries.n.Load()
	for range b.N {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_balance", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			b.Fatalf("get_balance: %v %v", err, res)
		}
	}
	took := time.Since(start)
	s.reportQueries(b, queries, nil, b.N, "queries/op")
	s.reportBeside(b, took, b.N, 1)
}

// BenchmarkRESTGetBalance is BenchmarkMCPGetBalance over REST (GET /balance).
func BenchmarkRESTGetBalance(b *testing.B) {
	s := newBenchSite(b)
	hc := &http.Client{Transport: s.tr}
	b.ResetTimer()
	start, queries := time.Now(), s.queries.n.Load()
	for range b.N {
		if status, body := s.rest(hc, http.MethodGet, "/balance", nil); status != http.StatusOK {
			b.Fatalf("GET /balance: %d %s", status, body)
		}
	}
	took := time.Since(start)
	s.reportQueries(b, queries, nil, b.N, "queries/op")
	s.reportBeside(b, took, b.N, 1)
}

// rest sends one REST request with the owner's key.
func (s *benchSite) rest(hc *http.Client, method, path string, body any) (int, []byte) {
	var r io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return 0, []byte(err.Error())
		}
		r = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, s.url+"/api/v1"+path, r)
	if err != nil {
		return 0, []byte(err.Error())
	}
	req.Header.Set("Authorization", "Bearer "+s.env.OwnerKey)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := hc.Do(req)
	if err != nil {
		return 0, []byte(err.Error())
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, raw
}

// floorWriters is how many clients the debit floor runs at once, as many
// as the add benchmarks' writers.
const floorWriters = benchWriters

// debitFloor is PostgreSQL's own rate, on the benchmark's pool, of what
// every auto-approved add must do at least: one transaction that writes
// one ledger row and moves the one balance row of the workspace (the
// ledger's MoveBalance, an adjustment of -1 cent), floorWriters at once,
// n transactions in all. It returns transactions per second. It debits
// the workspace's live balance, funded first with n cents, so that the
// test balance the adds spent is left as they left it.
func (s *benchSite) debitFloor(b *testing.B, n int) float64 {
	b.Helper()
	ctx := context.Background()
	if err := pgx.BeginFunc(ctx, s.app.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		if _, err := s.app.Ledger.LockBalance(ctx, q, s.env.WorkspaceID, core.ModeLive); err != nil {
			return err
		}
		_, err := s.app.Ledger.MoveBalance(ctx, q, ledger.LedgerMove{
			WorkspaceID: s.env.WorkspaceID, Mode: core.ModeLive, Kind: ledger.LedgerAdjustment, Cents: int64(n), Note: "debit floor's funds",
		})
		return err
	}); err != nil {
		b.Fatalf("debit floor's funds: %v", err)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range floorWriters {
		wg.Go(func() {
			for next.Add(1) <= int64(n) {
				err := pgx.BeginFunc(ctx, s.app.DB, func(tx pgx.Tx) error {
					_, err := s.app.Ledger.MoveBalance(ctx, db.New(tx), ledger.LedgerMove{
						WorkspaceID: s.env.WorkspaceID, Mode: core.ModeLive, Kind: ledger.LedgerAdjustment, Cents: -1, Note: "debit floor",
					})
					return err
				})
				if err != nil {
					b.Errorf("debit floor: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
	return float64(n) / time.Since(start).Seconds()
}

// reportFloor measures the debit floor for 1,000 transactions and reports
// it beside rate (adds per second): floor-tx/s and x-floor, rate over it.
func (s *benchSite) reportFloor(b *testing.B, rate float64) {
	b.StopTimer()
	floor := s.debitFloor(b, 1_000)
	b.ReportMetric(floor, "floor-tx/s")
	b.ReportMetric(rate/floor, "x-floor")
}

// reportRSS reports the process's resident set (the server, its jobs and
// the benchmark's clients, which share the process) in MiB, from
// /proc/self/status; nothing where that cannot be read.
func reportRSS(b *testing.B) {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for line := range strings.Lines(string(raw)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb float64
			if _, err := fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), &kb); err == nil {
				b.ReportMetric(kb/1024, "rss-MiB")
			}
			return
		}
	}
}
