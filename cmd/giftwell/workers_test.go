package main

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/apptest"
)

// outbox records what the email worker sends.
type outbox struct {
	mu   sync.Mutex
	sent []core.Email
}

func (o *outbox) Send(_ context.Context, e core.Email) error {
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

var _ core.EmailSender = (*outbox)(nil)

// The River client serve starts delivers a queued invitation email through
// the configured sender, without anyone calling DeliverEmails.
func TestJobsDeliverQueuedEmail(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	token, _ := env.SignIn(t, env.OwnerEmail)
	p, err := env.App.AuthenticateSession(ctx, token)
	require.NoError(t, err)
	created, err := env.App.InviteTeamMember(ctx, p, core.InviteParams{Email: "new.hire@example.com", Role: core.RoleMember})
	require.NoError(t, err)
	require.True(t, created.EmailQueued)

	sent := &outbox{}
	j, err := newJobs(env.App.DB, slog.New(slog.DiscardHandler), env.App, sent)
	require.NoError(t, err)
	require.NoError(t, j.Start(ctx))
	t.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		require.NoError(t, j.Stop(stopCtx))
	})
	require.Eventually(t, func() bool { return len(sent.to()) == 1 }, 20*time.Second, 50*time.Millisecond,
		"the periodic job ran on start and sent the invitation")
	require.Equal(t, []string{"new.hire@example.com"}, sent.to())
}
