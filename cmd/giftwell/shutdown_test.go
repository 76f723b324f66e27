package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/internal/testdb"
)

// inFlightRequests is how many requests the shutdown test holds in flight.
const inFlightRequests = 50

// TestShutdownFinishesRequestsInFlight: 50 adds to a playbook are in flight
// (each has sent its headers and half its body) when serve gets SIGTERM. It
// stops accepting at once, every one of the 50 is answered 200 once its
// body arrives, all 50 people are on the playbook, and serve exits 0. A
// restart on the initialised database serves /readyz in under 2 seconds.
func TestShutdownFinishesRequestsInFlight(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := testdb.NewDSN(t)
	app, key, playbook := preparePlaybook(t, dsn)

	serveCmd := func() *exec.Cmd {
		cmd := exec.Command(giftwellBinary(t), "serve", "--addr", "127.0.0.1:0")
		cmd.Env = append(os.Environ(), "DATABASE_URL="+dsn, "GIFTWELL_DATA_DIR="+t.TempDir())
		return cmd
	}
	cmd := serveCmd()
	s := startServe(t, cmd)
	u, err := url.Parse(s.site)
	require.NoError(t, err)

	// Fifty requests, each stopped halfway through its body.
	type held struct {
		conn net.Conn
		rest string
	}
	var requests []held
	for i := range inFlightRequests {
		body := fmt.Sprintf(`{"recipient":{"name":"Person %02d","sourceSystem":"crm","externalId":"shutdown-%02d"}}`, i, i)
		conn, err := net.Dial("tcp", u.Host)
		require.NoError(t, err)
		t.Cleanup(func() { _ = conn.Close() })
		half := len(body) / 2
		_, err = fmt.Fprintf(conn, "POST /api/v1/playbooks/%s/people HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"+
			"Content-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", playbook, u.Host, key, len(body), body[:half])
		require.NoError(t, err)
		requests = append(requests, held{conn: conn, rest: body[half:]})
	}
	time.Sleep(300 * time.Millisecond) // every request is being read by its handler

	signalled := time.Now()
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	require.Eventually(t, func() bool {
		c, err := net.DialTimeout("tcp", u.Host, 100*time.Millisecond)
		if err == nil {
			_ = c.Close()
		}
		return err != nil
	}, 5*time.Second, 10*time.Millisecond, "serve stops accepting connections")
	refusedAfter := time.Since(signalled)

	var wg sync.WaitGroup
	statuses := make([]int, len(requests))
	for i, r := range requests {
		wg.Go(func() {
			if _, err := r.conn.Write([]byte(r.rest)); err != nil {
				t.Errorf("request %d: finish the body: %v", i, err)
				return
			}
			res, err := http.ReadResponse(bufio.NewReader(r.conn), nil)
			if err != nil {
				t.Errorf("request %d: %v", i, err)
				return
			}
			_ = res.Body.Close()
			statuses[i] = res.StatusCode
		})
	}
	wg.Wait()
	completed := 0
	for _, st := range statuses {
		if st == http.StatusOK {
			completed++
		}
	}
	require.NoError(t, s.stop(), "exit status 0 after SIGTERM")
	exited := time.Since(signalled)

	var people int
	require.NoError(t, app.DB.QueryRow(ctx, `SELECT count(*) FROM recipients WHERE campaign_id = $1`, playbook).Scan(&people))
	inFlightLogged := shutdownLogged(t, s.later.String())
	t.Logf("shutdown: %d requests in flight (serve logged %d), %d completed with 200, %d people saved; new connections refused %v after SIGTERM; exited 0 %v after SIGTERM",
		len(requests), inFlightLogged, completed, people, refusedAfter.Round(time.Millisecond), exited.Round(time.Millisecond))
	require.Equal(t, inFlightRequests, completed)
	require.Equal(t, inFlightRequests, people)
	require.Equal(t, inFlightRequests, inFlightLogged)

	// A restart on the initialised database serves within 2 seconds.
	started := time.Now()
	again := startServe(t, serveCmd())
	res, err := http.Get(again.site + "/readyz")
	require.NoError(t, err)
	_ = res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	ready := time.Since(started)
	t.Logf("restart: /readyz answered 200 %v after the process started", ready.Round(time.Millisecond))
	require.Less(t, ready, 2*time.Second)
	require.NoError(t, again.stop())
}

// shutdownLogged is the requests_in_flight of serve's "shutting down" line.
func shutdownLogged(t *testing.T, logs string) int {
	t.Helper()
	for _, line := range strings.Split(logs, "\n") {
		var l struct {
			Msg      string `json:"msg"`
			InFlight int    `json:"requests_in_flight"`
		}
		if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "shutting down" {
			return l.InFlight
		}
	}
	t.Fatalf("serve logged no shutting down line:\n%s", logs)
	return 0
}

// preparePlaybook makes a workspace with an active playbook on the
// database at dsn, as a serve on it would find them, and returns an App on
// it, the owner's key and the playbook's ID.
func preparePlaybook(t *testing.T, dsn string) (*giftwell.App, string, string) {
	t.Helper()
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, dsn)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	app := giftwell.New(pool, core.Config{SiteURL: "http://127.0.0.1:0"}, nil, nil)
	t.Cleanup(app.Catalog.Close)
	app.Jobs = apptest.NewJobs(t, pool)
	ws := apptest.NewWorkspace(t, app, apptest.WorkspaceOptions{})
	signedIn, err := app.Identity.SignIn(ctx, identity.SignInParams{Email: ws.OwnerEmail, Password: apptest.Password, ClientIP: "192.0.2.1"})
	require.NoError(t, err)
	owner, err := app.Identity.AuthenticateSession(ctx, signedIn.Token)
	require.NoError(t, err)
	c, err := app.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{Name: "Shutdown playbook", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive,
		ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!"})
	require.NoError(t, err)
	return app, ws.OwnerKey, c.ID
}

// slowSender is an EmailSender whose sends take d (or end with their
// context), reporting when one has started.
type slowSender struct {
	d       time.Duration
	started chan struct{}
	mu      sync.Mutex
	sent    int
	ended   error
}

func (s *slowSender) Send(ctx context.Context, _ identity.Email) error {
	s.started <- struct{}{}
	select {
	case <-time.After(s.d):
		s.mu.Lock()
		defer s.mu.Unlock()
		s.sent++
		return nil
	case <-ctx.Done():
		s.mu.Lock()
		defer s.mu.Unlock()
		s.ended = ctx.Err()
		return ctx.Err()
	}
}

// TestShutdownLetsRunningJobsFinish: a job running at shutdown finishes
// when it can within the bound, and is cancelled (to be retried) when it
// cannot; either way shutdown returns within the bound and a little.
func TestShutdownLetsRunningJobsFinish(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name       string
		send       time.Duration
		finishes   bool
		grace, max time.Duration
	}{
		{"within the bound", 500 * time.Millisecond, true, 5 * time.Second, 3 * time.Second},
		{"past the bound", time.Minute, false, 300 * time.Millisecond, jobsCancelGrace},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			env := apptest.New(t)
			ctx := context.Background()
			token, _ := env.SignIn(t, env.OwnerEmail)
			p, err := env.App.Identity.AuthenticateSession(ctx, token)
			require.NoError(t, err)
			_, err = env.App.Identity.InviteTeamMember(ctx, p, identity.InviteParams{Email: "new.hire@example.com", Role: core.RoleMember})
			require.NoError(t, err)

			sender := &slowSender{d: c.send, started: make(chan struct{}, 8)}
			j, err := newJobs(env.App.DB, slog.New(slog.DiscardHandler), env.App, sender)
			require.NoError(t, err)
			require.NoError(t, j.Start(ctx))
			select {
			case <-sender.started:
			case <-time.After(20 * time.Second):
				t.Fatal("the email job did not start")
			}
			start := time.Now()
			shutdown(&http.Server{}, j, &inFlight{}, c.grace, slog.New(slog.DiscardHandler))
			took := time.Since(start)
			sender.mu.Lock()
			defer sender.mu.Unlock()
			t.Logf("%s: shutdown took %v; sent %d, ended by %v", c.name, took.Round(time.Millisecond), sender.sent, sender.ended)
			require.Less(t, took, c.max)
			if c.finishes {
				require.Equal(t, 1, sender.sent, "the running job finished")
			} else {
				require.Equal(t, 0, sender.sent)
				require.ErrorIs(t, sender.ended, context.Canceled, "the job still running was cancelled")
			}
		})
	}
}
