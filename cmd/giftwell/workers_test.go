package main

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
)

// outbox records what the email worker sends.
type outbox struct {
	mu   sync.Mutex
	sent []identity.Email
}

func (o *outbox) Send(_ context.Context, e identity.Email) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sent = append(o.sent, e)
	return nil
}

func (o *outbox) to() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var to []string
	for _, e := range o.sent {
		to = append(to, e.To)
	}
	return to
}

var _ identity.EmailSender = (*outbox)(nil)

// The River client serve starts delivers a queued invitation email through
// the configured sender: its job was inserted with the invitation.
func TestJobsDeliverQueuedEmail(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	token, _ := env.SignIn(t, env.OwnerEmail)
	p, err := env.App.Identity.AuthenticateSession(ctx, token)
	require.NoError(t, err)
	created, err := env.App.Identity.InviteTeamMember(ctx, p, identity.InviteParams{Email: "new.hire@example.com", Role: core.RoleMember})
	require.NoError(t, err)
	require.True(t, created.EmailQueued)

	sent := &outbox{}
	startJobs(t, env, sent)
	require.Eventually(t, func() bool { return len(sent.to()) == 1 }, 20*time.Second, 50*time.Millisecond,
		"the invitation's email job ran and sent it")
	require.Equal(t, []string{"new.hire@example.com"}, sent.to())
}

// The crons are housekeeping (pruning sign-in records and guesses, sweeping
// unfinished artwork uploads), the gift-link expiry sweep, the approvers'
// daily digest and the sweep for people a stopped process left scheduled,
// which wait on time alone: other emails and approvals are jobs inserted
// with their write, or decided at once by a group commit, never polled.
func TestJobsPeriodicIsHousekeepingOnly(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	periodic := addWorkers(river.NewWorkers(), env.App, &outbox{})
	require.Len(t, periodic, 5)
	j, err := newJobs(env.App.DB, slog.New(slog.DiscardHandler), env.App, &outbox{})
	require.NoError(t, err)
	require.Same(t, j.Client, env.App.Jobs, "the App inserts with the client that works the jobs")
}

// River's own INFO lines (producer counts every few seconds) are dropped;
// its warnings and errors are kept, with the service's attributes.
func TestRiverLoggerDropsInfo(t *testing.T) {
	t.Parallel()
	var buf apptest.LogBuffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})).With("service", "giftwell")
	rl := riverLogger(log).WithGroup("river")
	rl.Info("producer: job counts", "running", 0)
	rl.Debug("elector: attempting to gain leadership")
	require.Empty(t, buf.String())
	rl.Warn("job failed", "job_id", 7)
	rl.Error("leader lost")
	out := buf.String()
	require.Contains(t, out, `"msg":"job failed"`)
	require.Contains(t, out, `"msg":"leader lost"`)
	require.Contains(t, out, `"service":"giftwell"`)
	require.Contains(t, out, `"river":{"job_id":7}`)
	require.False(t, riverLogger(log).Enabled(context.Background(), slog.LevelInfo))
}

// startJobs builds serve's River client for env's App, with sender and
// middleware, starts it, and stops it when the test ends.
func startJobs(t *testing.T, env *apptest.Env, sender identity.EmailSender, middleware ...rivertype.Middleware) *jobs {
	t.Helper()
	j, err := newJobs(env.App.DB, slog.New(slog.DiscardHandler), env.App, sender, middleware...)
	require.NoError(t, err)
	require.NoError(t, j.Start(context.Background()))
	t.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		require.NoError(t, j.Stop(stopCtx))
	})
	return j
}
