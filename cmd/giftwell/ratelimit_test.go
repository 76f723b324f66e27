package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
)

// limited is a request's outcome as the rate-limit tests count it.
type limited struct {
	status       int
	retryAfter   string
	retryAfterMs int64
	remaining    string
	code         string
}

// sendCounted makes one request and reads the parts the limit sets.
func sendCounted(t *testing.T, method, url, key, body string, header map[string]string) limited {
	t.Helper()
	res, b := send(t, method, url, key, body, header)
	out := limited{status: res.StatusCode, retryAfter: res.Header.Get("Retry-After"), remaining: res.Header.Get("RateLimit-Remaining")}
	if res.StatusCode == http.StatusTooManyRequests && strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		var env struct {
			Code         string `json:"code"`
			RetryAfterMs int64  `json:"retryAfterMs"`
		}
		if err := json.Unmarshal([]byte(b), &env); err != nil {
			t.Errorf("a 429 envelope: %v: %s", err, b)
		}
		out.code, out.retryAfterMs = env.Code, env.RetryAfterMs
	}
	return out
}

// viaFace sends request i through REST, MCP or the web app in turn, so the
// three share the count.
func viaFace(t *testing.T, srvURL, key, session string, i int) limited {
	t.Helper()
	switch i % 3 {
	case 0:
		return sendCounted(t, http.MethodGet, srvURL+"/api/v1/workflow", key, "", nil)
	case 1:
		return sendCounted(t, http.MethodPost, srvURL+"/mcp", key, mcpToolCall, map[string]string{
			"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "get_workflow_guide"})
	}
	return sendCounted(t, http.MethodGet, srvURL+"/team", "", "", map[string]string{"Cookie": identity.SessionCookieName + "=" + session})
}

// TestRateLimitSixteenClientsRace: 16 clients race through REST, MCP and
// the web app for one workspace's 240 requests a minute; exactly 240
// succeed, every other request is 429 RATE_LIMIT with retryAfterMs (the
// time left in the minute) and Retry-After in whole seconds; GET /catalog
// and GET /session are not counted; the RateLimit headers say what is left.
func TestRateLimitSixteenClientsRace(t *testing.T) {
	t.Parallel()
	env := apptest.New(t, apptest.WithRateLimit(0))
	env.Clock.Set(apptest.Epoch.Add(10*time.Second + 250*time.Millisecond)) // 49.75 s left in the minute
	srv := httptest.NewServer(routes(env.App, slog.New(slog.DiscardHandler)))
	t.Cleanup(srv.Close)
	session, _ := env.SignIn(t, env.OwnerEmail)

	first := viaFace(t, srv.URL, env.OwnerKey, session, 0)
	require.Equal(t, http.StatusOK, first.status)
	require.Equal(t, "239", first.remaining)

	const clients, each = 16, 20
	var ok, refused atomic.Int64
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			for i := range each {
				r := viaFace(t, srv.URL, env.OwnerKey, session, c+i)
				switch r.status {
				case http.StatusOK:
					ok.Add(1)
				case http.StatusTooManyRequests:
					refused.Add(1)
				default:
					t.Errorf("request %d of client %d: status %d", i, c, r.status)
				}
			}
		})
	}
	wg.Wait()
	t.Logf("16 clients x 20 requests after 1: %d succeeded, %d refused (limit 240)", ok.Load()+1, refused.Load())
	require.EqualValues(t, 240, ok.Load()+1)
	require.EqualValues(t, clients*each-239, refused.Load())

	r := viaFace(t, srv.URL, env.OwnerKey, session, 0)
	require.Equal(t, http.StatusTooManyRequests, r.status)
	require.Equal(t, string(core.CodeRateLimit), r.code)
	require.EqualValues(t, 49750, r.retryAfterMs)
	require.Equal(t, "50", r.retryAfter)
	require.Equal(t, "0", r.remaining)
	r = viaFace(t, srv.URL, env.OwnerKey, session, 1)
	require.Equal(t, http.StatusTooManyRequests, r.status, "MCP is refused before the tool runs, keeping 429")
	require.Equal(t, "50", r.retryAfter)
	r = viaFace(t, srv.URL, env.OwnerKey, session, 2)
	require.Equal(t, http.StatusTooManyRequests, r.status, "the web app shares the limit")
	require.Equal(t, "50", r.retryAfter)

	for _, path := range []string{"/api/v1/catalog", "/api/v1/session"} {
		r = sendCounted(t, http.MethodGet, srv.URL+path, env.OwnerKey, "", nil)
		require.Equal(t, http.StatusOK, r.status, path)
		require.Empty(t, r.remaining, path)
	}
}

// TestRateLimitWindowEdge: the windows are fixed clock minutes. 240
// requests at 09:00:59.600 fill the minute; the next is refused with 400 ms
// left (Retry-After 1); at 09:01:00 a whole new 240 are allowed.
func TestRateLimitWindowEdge(t *testing.T) {
	t.Parallel()
	env := apptest.New(t, apptest.WithRateLimit(0))
	env.Clock.Set(apptest.Epoch.Add(59*time.Second + 600*time.Millisecond))
	srv := httptest.NewServer(routes(env.App, slog.New(slog.DiscardHandler)))
	t.Cleanup(srv.Close)
	rest := func() limited {
		return sendCounted(t, http.MethodGet, srv.URL+"/api/v1/workflow", env.OwnerKey, "", nil)
	}
	for i := range 240 {
		require.Equal(t, http.StatusOK, rest().status, "request %d", i+1)
	}
	r := rest()
	require.Equal(t, http.StatusTooManyRequests, r.status)
	require.EqualValues(t, 400, r.retryAfterMs)
	require.Equal(t, "1", r.retryAfter)

	env.Clock.Advance(400 * time.Millisecond)
	r = rest()
	require.Equal(t, http.StatusOK, r.status)
	require.Equal(t, "239", r.remaining)
	for i := range 239 {
		require.Equal(t, http.StatusOK, rest().status, "request %d of the new minute", i+2)
	}
	r = rest()
	require.Equal(t, http.StatusTooManyRequests, r.status)
	require.EqualValues(t, 60000, r.retryAfterMs)
	require.Equal(t, "60", r.retryAfter)
}

// TestRateLimitAcrossThreeInstances: three instances on one database, with
// clocks skewed by tens of seconds, take turns on one workspace and admit
// exactly 240 requests in the database's minute, not 241 and not 720; the
// refusals' Retry-After is the database's time left in its minute, to the
// second.
func TestRateLimitAcrossThreeInstances(t *testing.T) {
	t.Parallel()
	env := apptest.New(t, apptest.WithRateLimit(0))
	ctx := context.Background()
	var urls []string
	for _, skew := range []time.Duration{0, 37 * time.Second, -21 * time.Second} {
		app := env.NewInstance(t, core.NewFakeClock(time.Now().Add(skew)))
		srv := httptest.NewServer(routes(app, slog.New(slog.DiscardHandler)))
		t.Cleanup(srv.Close)
		urls = append(urls, srv.URL)
	}
	waitForFreshMinute(t, env.App)

	admitted := make([]int, len(urls))
	var last limited
	for i := range 300 {
		r := sendCounted(t, http.MethodGet, urls[i%3]+"/api/v1/workflow", env.OwnerKey, "", nil)
		switch r.status {
		case http.StatusOK:
			admitted[i%3]++
		case http.StatusTooManyRequests:
			last = r
		default:
			t.Fatalf("request %d: status %d", i, r.status)
		}
	}
	var left int64
	require.NoError(t, env.App.DB.QueryRow(ctx,
		`SELECT ceil(extract(epoch FROM date_trunc('minute', now()) + interval '1 minute' - now()) * 1000)::bigint`).Scan(&left))
	total := admitted[0] + admitted[1] + admitted[2]
	t.Logf("three instances taking turns, 300 requests: admitted %v = %d; last refusal retryAfterMs %d, Retry-After %s; database's time left %d ms",
		admitted, total, last.retryAfterMs, last.retryAfter, left)
	require.Equal(t, 240, total)
	require.Equal(t, []int{80, 80, 80}, admitted)
	require.Equal(t, string(core.CodeRateLimit), last.code)
	require.InDelta(t, left, last.retryAfterMs, 1500)
	require.Equal(t, strconv.FormatInt((last.retryAfterMs+999)/1000, 10), last.retryAfter)
}

// waitForFreshMinute waits, when the database's minute has less than 15
// seconds left, for the next one, so that a test's requests fall in one
// window.
func waitForFreshMinute(t *testing.T, app *giftwell.App) {
	t.Helper()
	var sec float64
	require.NoError(t, app.DB.QueryRow(context.Background(), `SELECT extract(second FROM now())::float8`).Scan(&sec))
	if sec > 45 {
		time.Sleep(time.Duration((60-sec)*float64(time.Second)) + 100*time.Millisecond)
	}
}

// TestRateLimitFlag: --rate-limit-per-minute and GIFTWELL_RATE_LIMIT_PER_MINUTE
// set the limit, 240 by default; below 1 is refused.
func TestRateLimitFlag(t *testing.T) {
	cfg, err := serveFlags(nil)
	require.NoError(t, err)
	require.Equal(t, 240, cfg.rateLimitPerMinute)
	cfg, err = serveFlags([]string{"--rate-limit-per-minute", "100000"})
	require.NoError(t, err)
	require.Equal(t, 100000, cfg.rateLimitPerMinute)
	t.Setenv("GIFTWELL_RATE_LIMIT_PER_MINUTE", "600")
	cfg, err = serveFlags(nil)
	require.NoError(t, err)
	require.Equal(t, 600, cfg.rateLimitPerMinute)
	_, err = serveFlags([]string{"--rate-limit-per-minute", "0"})
	require.ErrorContains(t, err, "at least 1")
}

// TestRateLimitCountsEveryMessageOfABatch: an MCP batch of n messages counts
// n requests (the first with authentication, the rest in one statement);
// a batch that would go over is refused before any message runs.
func TestRateLimitCountsEveryMessageOfABatch(t *testing.T) {
	t.Parallel()
	env := apptest.New(t, apptest.WithRateLimit(5))
	srv := httptest.NewServer(routes(env.App, slog.New(slog.DiscardHandler)))
	t.Cleanup(srv.Close)
	batch := func(n int) limited {
		msgs := make([]string, n)
		for i := range msgs {
			msgs[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"get_workflow_guide","arguments":{}}}`, i+1)
		}
		body := msgs[0]
		if n > 1 {
			body = "[" + strings.Join(msgs, ",") + "]"
		}
		return sendCounted(t, http.MethodPost, srv.URL+"/mcp", env.OwnerKey, body, map[string]string{"Mcp-Protocol-Version": "2025-03-26"})
	}
	r := batch(3)
	require.Equal(t, http.StatusOK, r.status)
	require.Equal(t, "2", r.remaining)
	r = batch(3)
	require.Equal(t, http.StatusTooManyRequests, r.status)
	require.Equal(t, string(core.CodeRateLimit), r.code)
	r = batch(1)
	require.Equal(t, http.StatusOK, r.status, "the refused batch counted only its first message")
	require.Equal(t, "0", r.remaining)
	require.Equal(t, http.StatusTooManyRequests, batch(1).status)
}
