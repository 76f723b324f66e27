package identity_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// emailJob is the one delivery job of an invitation just made in env.
func emailJob(t *testing.T, env *apptest.Env) *rivertype.JobRow {
	t.Helper()
	jobs := apptest.Jobs(t, env.App, identity.DeliverEmailArgs{}.Kind())
	require.Len(t, jobs, 1)
	return jobs[0]
}

func TestEmailJobRetriesThenGivesUp(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	_, owner := env.SignIn(t, env.OwnerEmail)
	created, err := env.App.Identity.InviteTeamMember(ctx, owner, identity.InviteParams{Email: apptest.UniqueEmail("a"), Role: core.RoleMember})
	require.NoError(t, err)

	// The job carries the email's ID only, never the link in its body.
	rows, err := db.New(env.App.DB).EmailOutboxListByWorkspace(ctx, &env.WorkspaceID)
	require.NoError(t, err)
	require.Len(t, rows, 1)
	job := emailJob(t, env)
	require.JSONEq(t, `{"email_id": "`+rows[0].ID+`"}`, string(job.EncodedArgs))
	require.NotContains(t, string(job.EncodedArgs)+string(job.Metadata), tokenOf(t, env, created.InviteURL))
	require.Equal(t, identity.EmailMaxAttempts, job.MaxAttempts)

	box := &outbox{fail: errors.New("mailbox unavailable")}
	worker := &identity.DeliverEmailWorker{Identity: env.App.Identity, Sender: box}
	waits := []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour}
	for attempt := 1; attempt <= identity.EmailMaxAttempts; attempt++ {
		worked := apptest.WorkJobs(t, env.App, worker)
		require.Len(t, worked, 1)
		require.Len(t, box.sent, attempt)
		job := worked[0]
		require.Equal(t, attempt, job.Attempt)
		require.Contains(t, job.Errors[len(job.Errors)-1].Error, "mailbox unavailable")
		row, err := db.New(env.App.DB).EmailOutboxGet(ctx, rows[0].ID)
		require.NoError(t, err)
		require.EqualValues(t, attempt, row.Attempts)
		require.Equal(t, "mailbox unavailable", row.LastError)
		if attempt < identity.EmailMaxAttempts {
			require.Equal(t, rivertype.JobStateRetryable, job.State)
			wait := waits[min(attempt, len(waits))-1]
			require.WithinDuration(t, job.AttemptedAt.Add(wait), job.ScheduledAt, time.Millisecond, "attempt %d: not due again before %s", attempt, wait)
			require.Equal(t, "pending", row.State)
			require.NotEmpty(t, row.Body)
			continue
		}
		require.Equal(t, rivertype.JobStateDiscarded, job.State)
		require.Equal(t, "failed", row.State)
		require.Empty(t, row.Body, "the link is not kept")
	}
	require.Empty(t, apptest.WorkJobs(t, env.App, worker), "given up")
	require.Len(t, box.sent, identity.EmailMaxAttempts)

	// A sent email's body is cleared too.
	env.Clock.Advance(time.Hour)
	_, err = env.App.Identity.InviteTeamMember(ctx, owner, identity.InviteParams{Email: apptest.UniqueEmail("b"), Role: core.RoleMember})
	require.NoError(t, err)
	require.Equal(t, 1, env.DeliverEmails(t, &outbox{}))
	rows, err = db.New(env.App.DB).EmailOutboxListByWorkspace(ctx, &env.WorkspaceID)
	require.NoError(t, err)
	require.Equal(t, "sent", rows[1].State)
	require.Empty(t, rows[1].Body)
	require.NotNil(t, rows[1].SentAt)
	require.EqualValues(t, 1, rows[1].Attempts)
}

// River delivers a job at least once: the same job run again after the
// email was sent (or given up) sends nothing.
func TestEmailJobIsIdempotent(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	_, owner := env.SignIn(t, env.OwnerEmail)
	_, err := env.App.Identity.InviteTeamMember(ctx, owner, identity.InviteParams{Email: apptest.UniqueEmail("a"), Role: core.RoleMember})
	require.NoError(t, err)
	job := emailJob(t, env)

	box := &outbox{}
	require.Equal(t, 1, env.DeliverEmails(t, box))
	worker := &identity.DeliverEmailWorker{Identity: env.App.Identity, Sender: box}
	again := &river.Job[identity.DeliverEmailArgs]{JobRow: job}
	require.NoError(t, json.Unmarshal(job.EncodedArgs, &again.Args))
	again.Attempt = 2
	require.NoError(t, worker.Work(ctx, again))
	require.Len(t, box.sent, 1, "a sent email is never sent again")
}

// checkingSender checks, while it sends, that the App holds no transaction
// and no lock on the email.
type checkingSender struct {
	env     *apptest.Env
	checked chan error
}

func (s *checkingSender) Send(ctx context.Context, e identity.Email) error {
	s.checked <- s.env.RequireNoTransaction(ctx, func(tx pgx.Tx) error {
		// The row can be locked from another connection: nobody holds it.
		var id string
		return tx.QueryRow(ctx, "SELECT id FROM email_outbox WHERE to_address = $1 FOR UPDATE NOWAIT", e.To).Scan(&id)
	})
	return nil
}

// No network inside a transaction: the worker holds no transaction or row
// lock while the sender talks to the mail server.
func TestEmailJobSendsOutsideATransaction(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	_, owner := env.SignIn(t, env.OwnerEmail)
	_, err := env.App.Identity.InviteTeamMember(ctx, owner, identity.InviteParams{Email: apptest.UniqueEmail("a"), Role: core.RoleMember})
	require.NoError(t, err)
	job := emailJob(t, env)

	s := &checkingSender{env: env, checked: make(chan error, 1)}
	worker := &identity.DeliverEmailWorker{Identity: env.App.Identity, Sender: s}
	// Work is called directly: River's own test executor would hold the
	// job's row in a transaction of its own around it.
	run := &river.Job[identity.DeliverEmailArgs]{JobRow: job}
	require.NoError(t, json.Unmarshal(job.EncodedArgs, &run.Args))
	run.Attempt = 1
	require.NoError(t, worker.Work(ctx, run))
	require.NoError(t, <-s.checked)
	row, err := db.New(env.App.DB).EmailOutboxGet(ctx, run.Args.EmailID)
	require.NoError(t, err)
	require.Equal(t, "sent", row.State)
}

// A mail server's long error is kept cut to 1,000 bytes without splitting
// a character: PostgreSQL refuses a broken UTF-8 sequence as text, which
// would turn the failed send into a database error.
func TestEmailJobKeepsALongErrorAsText(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	_, owner := env.SignIn(t, env.OwnerEmail)
	_, err := env.App.Identity.InviteTeamMember(ctx, owner, identity.InviteParams{Email: apptest.UniqueEmail("a"), Role: core.RoleMember})
	require.NoError(t, err)

	long := strings.Repeat("x", 999) + strings.Repeat("é", 10) // byte 1,000 is inside an é
	worker := &identity.DeliverEmailWorker{Identity: env.App.Identity, Sender: &outbox{fail: errors.New(long)}}
	worked := apptest.WorkJobs(t, env.App, worker)
	require.Len(t, worked, 1)
	require.Equal(t, rivertype.JobStateRetryable, worked[0].State)
	require.Contains(t, worked[0].Errors[0].Error, "xxx", "the send failed, not the database")
	rows, err := db.New(env.App.DB).EmailOutboxListByWorkspace(ctx, &env.WorkspaceID)
	require.NoError(t, err)
	require.Len(t, rows, 1)
	require.Equal(t, strings.Repeat("x", 999), rows[0].LastError)
}
