package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
)

// The fault test: the whole service over REST, its database behind a TCP
// proxy that drops every connection, refuses new ones and adds latency,
// while eight clients add people to a playbook (with the owner's key) and
// approve their gifts (the owner signed in). Afterwards every write is whole
// or absent, the ledger adds up, clients saw only 2xx, a business 4xx or 503
// SERVICE_UNAVAILABLE with retry_later or reread_and_retry, and the service
// served a read within 5 seconds of each time the database came back.

const (
	faultClients = 8
	// faultMinPeople is how many people each client adds and approves at
	// least; clients go on until the faults are over.
	faultMinPeople = 6
	// faultMaxWait caps the wait a client takes before a retry, so that the
	// test stays short (the service suggests retryAfterMs).
	faultMaxWait = 100 * time.Millisecond
)

// faultSite is the service on a real listener over a faulty database.
type faultSite struct {
	env      *apptest.Env
	url      string
	key      string
	cookie   string
	playbook string
	http     *http.Client

	mu       sync.Mutex
	answers  map[string]int // "503 SERVICE_UNAVAILABLE retry_later" → count
	bad      []string       // answers a client must never see
	requests atomic.Int64
}

// answer is one decoded REST answer.
type answer struct {
	status int
	code   string
	next   string
	wait   time.Duration
	data   map[string]any
}

// do sends one request and records what came back.
func (s *faultSite) do(method, path, body string, cookie bool) (answer, error) {
	req, err := http.NewRequest(method, s.url+"/api/v1"+path, strings.NewReader(body))
	if err != nil {
		return answer{}, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if cookie {
		req.Header.Set("Cookie", "giftwell_session="+s.cookie)
		req.Header.Set("Origin", s.url)
	} else {
		req.Header.Set("Authorization", "Bearer "+s.key)
	}
	s.requests.Add(1)
	res, err := s.http.Do(req)
	if err != nil {
		return answer{}, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return answer{}, fmt.Errorf("%s %s: read: %w", method, path, err)
	}
	var env struct {
		Code         string         `json:"code"`
		NextAction   string         `json:"nextAction"`
		RetryAfterMs int64          `json:"retryAfterMs"`
		Data         map[string]any `json:"data"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return answer{}, fmt.Errorf("%s %s: %d %q: %w", method, path, res.StatusCode, raw, err)
	}
	a := answer{status: res.StatusCode, code: env.Code, next: env.NextAction, data: env.Data,
		wait: min(time.Duration(env.RetryAfterMs)*time.Millisecond, faultMaxWait)}
	s.record(a, method+" "+path, raw)
	return a, nil
}

// record counts an answer and keeps it when a client must never see it.
func (s *faultSite) record(a answer, what string, raw []byte) {
	key := fmt.Sprintf("%d %s %s", a.status, a.code, a.next)
	if a.status < 300 {
		key = fmt.Sprint(a.status)
	}
	ok := a.status < 300 ||
		(a.status >= 400 && a.status < 500 && a.status != http.StatusUnauthorized) ||
		(a.status == http.StatusServiceUnavailable && a.code == "SERVICE_UNAVAILABLE" && (a.next == "retry_later" || a.next == "reread_and_retry"))
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answers[key]++
	if !ok {
		s.bad = append(s.bad, fmt.Sprintf("%s: %d %s", what, a.status, raw))
	}
}

// until sends a request until it is answered 2xx or a business 4xx other
// than the retryable PLAYBOOK_BUSY and RATE_LIMIT, waiting as told between
// tries; after reread_and_retry it reads the playbook first, as an agent
// would. It returns the last answer.
func (s *faultSite) until(ctx context.Context, method, path, body string, cookie bool) (answer, error) {
	for {
		a, err := s.do(method, path, body, cookie)
		if err != nil {
			return a, err
		}
		retry := a.status == http.StatusServiceUnavailable || a.code == "PLAYBOOK_BUSY" || a.code == "RATE_LIMIT"
		if !retry {
			return a, nil
		}
		select {
		case <-ctx.Done():
			return a, fmt.Errorf("%s %s: still %d %s when the test ended", method, path, a.status, a.code)
		case <-time.After(max(a.wait, 10*time.Millisecond)):
		}
		if a.next == "reread_and_retry" {
			if _, err := s.do(http.MethodGet, "/campaigns/"+s.playbook, "", false); err != nil {
				return a, err
			}
		}
	}
}

// person is one person a client added and approved: their recipient ID and
// gift ID ("" when the client could not finish).
type person struct{ externalID, recipientID, giftID string }

// client adds people and approves their gifts until stop is closed and it
// has done faultMinPeople; it reports what it finished.
func (s *faultSite) client(ctx context.Context, n int, stop <-chan struct{}) ([]person, error) {
	var done []person
	for i := 0; ; i++ {
		select {
		case <-stop:
			if i >= faultMinPeople {
				return done, nil
			}
		default:
		}
		p := person{externalID: fmt.Sprintf("c%d-%d", n, i)}
		a, err := s.until(ctx, http.MethodPost, "/playbooks/"+s.playbook+"/people",
			`{"recipient":{"name":"Fault Person `+p.externalID+`","sourceSystem":"fault","externalId":"`+p.externalID+`"}}`, false)
		if err != nil {
			return done, err
		}
		if a.status != http.StatusOK {
			return done, fmt.Errorf("add %s: %d %s", p.externalID, a.status, a.code)
		}
		p.recipientID, _ = a.data["recipientId"].(string)
		a, err = s.until(ctx, http.MethodPost, "/queue/approve", `{"campaignId":"`+s.playbook+`","recipientId":"`+p.recipientID+`"}`, true)
		if err != nil {
			return done, err
		}
		if a.status != http.StatusOK {
			return done, fmt.Errorf("approve %s: %d %s", p.externalID, a.status, a.code)
		}
		p.giftID, _ = a.data["id"].(string)
		done = append(done, p)
	}
}

// servedAgain polls a read until it is answered 200 and returns how long
// that took.
func (s *faultSite) servedAgain(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	for {
		a, err := s.do(http.MethodGet, "/balance", "", false)
		if err != nil {
			return 0, err
		}
		if a.status == http.StatusOK {
			return time.Since(start), nil
		}
		select {
		case <-ctx.Done():
			return time.Since(start), fmt.Errorf("no read served %v after the database returned", time.Since(start))
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// ready checks that /readyz answers want.
func (s *faultSite) ready(want int) error {
	res, err := s.http.Get(s.url + "/readyz")
	if err != nil {
		return err
	}
	_ = res.Body.Close()
	if res.StatusCode != want {
		return fmt.Errorf("/readyz answered %d, want %d", res.StatusCode, want)
	}
	return nil
}

// faults injects the schedule: connections dropped, the database down for
// a while, latency; while the database is down /readyz says so, and after
// each return it measures how soon a read is served again (and /readyz is
// ready again, without a restart). It returns the faults injected and the recoveries.
func (s *faultSite) faults(ctx context.Context, rng *rand.Rand) (int, []time.Duration, error) {
	p := s.env.Faults
	pause := func() { time.Sleep(time.Duration(150+rng.IntN(150)) * time.Millisecond) }
	var recoveries []time.Duration
	recovered := func() error {
		d, err := s.servedAgain(ctx)
		recoveries = append(recoveries, d)
		return err
	}
	schedule := []string{"latency", "cut", "down", "cut", "latency+down", "cut", "down", "latency", "down", "cut"}
	for _, f := range schedule {
		pause()
		switch f {
		case "cut":
			p.Cut()
		case "latency":
			p.SetLatency(time.Duration(10+rng.IntN(30)) * time.Millisecond)
			time.Sleep(time.Duration(300+rng.IntN(300)) * time.Millisecond)
			p.SetLatency(0)
		case "down", "latency+down":
			if f == "latency+down" {
				// Slow, then gone: the database returns at full speed.
				p.SetLatency(25 * time.Millisecond)
				time.Sleep(time.Duration(200+rng.IntN(200)) * time.Millisecond)
			}
			p.Down()
			if err := s.ready(http.StatusServiceUnavailable); err != nil {
				return 0, nil, err
			}
			time.Sleep(time.Duration(200+rng.IntN(400)) * time.Millisecond)
			p.SetLatency(0)
			if err := p.Up(); err != nil {
				return 0, nil, err
			}
			if err := recovered(); err != nil {
				return 0, nil, err
			}
			if err := s.ready(http.StatusOK); err != nil {
				return 0, nil, err
			}
		}
	}
	return len(schedule), recoveries, nil
}

func TestFaultsLeaveWritesWholeAndLedgerConsistent(t *testing.T) {
	t.Parallel()
	srv := httptest.NewUnstartedServer(nil)
	site := "http://" + srv.Listener.Addr().String()
	env := apptest.New(t, apptest.WithSiteURL(site), apptest.WithFaults())
	srv.Config.Handler = routes(env.App, slog.New(slog.DiscardHandler))
	srv.Start()
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	cookie, owner := env.SignIn(t, env.OwnerEmail)
	for range 3 {
		env.TopUp(t, owner, 2_000_000)
	}
	pb, err := env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{Name: "Fault playbook", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive,
		ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!"})
	require.NoError(t, err)
	s := &faultSite{env: env, url: site, key: env.OwnerKey, cookie: cookie, playbook: pb.ID,
		http: &http.Client{Timeout: time.Minute}, answers: map[string]int{}}

	// Eight clients, and the faults meanwhile.
	stop := make(chan struct{})
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		people []person
		errs   []error
	)
	for n := range faultClients {
		wg.Go(func() {
			done, err := s.client(ctx, n, stop)
			mu.Lock()
			defer mu.Unlock()
			people = append(people, done...)
			if err != nil {
				errs = append(errs, err)
			}
		})
	}
	injected, recoveries, ferr := s.faults(ctx, rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 17)))
	close(stop)
	wg.Wait()
	require.NoError(t, ferr)
	require.Empty(t, errs)

	// The database is back: a read is served within 5 seconds.
	last, err := s.servedAgain(ctx)
	require.NoError(t, err)
	recoveries = append(recoveries, last)
	for _, d := range recoveries {
		require.Less(t, d, 5*time.Second, "a read was served %v after the database returned", d)
	}
	require.Empty(t, s.bad, "answers a client must never see")
	require.Contains(t, s.answers, "503 SERVICE_UNAVAILABLE retry_later", "the faults reached the clients")

	checks := s.requireWhole(t, ctx, people)
	env.RequireLedgerConsistent(t, owner)
	checks++

	keys := slices.Sorted(maps.Keys(s.answers))
	var seen []string
	for _, k := range keys {
		seen = append(seen, fmt.Sprintf("%s ×%d", k, s.answers[k]))
	}
	t.Logf("fault test: %d clients, %d people added and approved, %d requests; %d faults injected (%d database connections opened through the proxy, %d times all dropped); "+
		"served again after %v; %d invariant checks passed; answers: %s",
		faultClients, len(people), s.requests.Load(), injected, env.Faults.Stats().Connections, env.Faults.Stats().Cuts,
		recoveries, checks, strings.Join(seen, ", "))
}

// requireWhole checks that every write is whole or absent: each person
// added once with one playbook.person_waiting event; each approved person
// with exactly one gift, which has exactly one debit of its total and one
// send.created event; no gift, debit or event without its person; and the
// clients' own record agrees. It returns the number of checks made.
func (s *faultSite) requireWhole(t *testing.T, ctx context.Context, people []person) int {
	t.Helper()
	db := s.env.App.DB
	checks := 0
	count := func(what, query string, args ...any) int {
		t.Helper()
		var n int
		require.NoError(t, db.QueryRow(ctx, query, args...).Scan(&n), what)
		checks++
		return n
	}
	ws := s.env.WorkspaceID
	require.Zero(t, count("people added twice",
		`SELECT count(*) FROM (SELECT external_id FROM recipients WHERE campaign_id = $1 GROUP BY external_id HAVING count(*) > 1) d`, s.playbook))
	require.Zero(t, count("people without exactly one person_waiting event",
		`SELECT count(*) FROM recipients r WHERE r.campaign_id = $1 AND
		   (SELECT count(*) FROM events e WHERE e.recipient_id = r.id AND e.type = 'playbook.person_waiting') <> 1`, s.playbook))
	require.Zero(t, count("approved people without exactly one gift",
		`SELECT count(*) FROM recipients r WHERE r.campaign_id = $1 AND r.approval_state IN ('approved', 'auto_approved') AND
		   (SELECT count(*) FROM sends g WHERE g.recipient_id = r.id) <> 1`, s.playbook))
	require.Zero(t, count("gifts of people not approved",
		`SELECT count(*) FROM sends g JOIN recipients r ON r.id = g.recipient_id
		 WHERE g.workspace_id = $1 AND r.approval_state NOT IN ('approved', 'auto_approved')`, ws))
	require.Zero(t, count("gifts without exactly one debit of their total",
		`SELECT count(*) FROM sends g WHERE g.workspace_id = $1 AND g.funded_by = 'balance' AND
		   (SELECT count(*) FROM ledger_entries l WHERE l.send_id = g.id AND l.kind = 'debit' AND l.cents = -g.total_cents) <> 1`, ws))
	require.Zero(t, count("ledger entries of gifts that do not exist",
		`SELECT count(*) FROM ledger_entries l WHERE l.workspace_id = $1 AND l.send_id IS NOT NULL AND
		   NOT EXISTS (SELECT 1 FROM sends g WHERE g.id = l.send_id)`, ws))
	require.Zero(t, count("gifts without exactly one send.created event",
		`SELECT count(*) FROM sends g WHERE g.workspace_id = $1 AND
		   (SELECT count(*) FROM events e WHERE e.send_id = g.id AND e.type = 'send.created') <> 1`, ws))
	require.Zero(t, count("events of gifts or people that do not exist",
		`SELECT count(*) FROM events e WHERE e.workspace_id = $1 AND
		   ((e.send_id <> '' AND NOT EXISTS (SELECT 1 FROM sends g WHERE g.id = e.send_id)) OR
		    (e.recipient_id <> '' AND NOT EXISTS (SELECT 1 FROM recipients r WHERE r.id = e.recipient_id)))`, ws))
	// The clients' record: every person they finished has the gift they
	// were told about, and every gift is one of theirs.
	require.Equal(t, len(people), count("gifts", `SELECT count(*) FROM sends WHERE workspace_id = $1`, ws))
	for _, p := range people {
		require.Equal(t, 1, count("the client's gift "+p.giftID,
			`SELECT count(*) FROM sends g JOIN recipients r ON r.id = g.recipient_id
			 WHERE g.id = $1 AND r.id = $2 AND r.external_id = $3 AND r.campaign_id = $4`, p.giftID, p.recipientID, p.externalID, s.playbook))
	}
	return checks
}
