package campaign_test

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
)

// heldApprovals works approval jobs with core's worker, but its first job,
// once done deciding, waits for release before it returns: the moment
// between a job's last look at the queue and River marking it completed.
type heldApprovals struct {
	river.WorkerDefaults[campaign.ScheduledApprovalArgs]
	inner    *campaign.ScheduledApprovalWorker
	first    atomic.Bool
	entered  chan struct{}
	released chan struct{}
}

func (h *heldApprovals) Work(ctx context.Context, job *river.Job[campaign.ScheduledApprovalArgs]) error {
	err := h.inner.Work(ctx, job)
	if h.first.CompareAndSwap(false, true) {
		close(h.entered)
		<-h.released
	}
	return err
}

// A person scheduled while the playbook's approval job is still running
// gets a job of their own: the running one has already looked.
func TestApprovalJobRunningQueuesAnother(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 100_000, 10_000)
	w.env.TopUp(t, w.owner, 50_000)
	first, err := app.Campaigns.AddRecipients(ctx, w.key, c.ID, campaign.RecipientsAdd{Recipients: []campaign.RecipientInput{newPerson("1")}})
	require.NoError(t, err)

	held := &heldApprovals{inner: &campaign.ScheduledApprovalWorker{Campaigns: app.Campaigns}, entered: make(chan struct{}), released: make(chan struct{})}
	workers := river.NewWorkers()
	river.AddWorker(workers, held)
	client, err := river.NewClient(riverpgxv5.New(app.DB), &river.Config{
		Logger:  slog.New(slog.DiscardHandler),
		Workers: workers,
		Queues:  map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 1}},
	})
	require.NoError(t, err)
	require.NoError(t, client.Start(ctx))
	t.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		require.NoError(t, client.Stop(stopCtx))
	})
	var release sync.Once
	t.Cleanup(func() { release.Do(func() { close(held.released) }) }) // before Stop, should the test fail
	select {
	case <-held.entered:
	case <-time.After(20 * time.Second):
		t.Fatal("the approval job did not run")
	}
	st, _ := w.state(c.ID, first.Added[0])
	require.Equal(t, campaign.ApprovalAutoApproved, st)

	second, err := app.Campaigns.AddRecipients(ctx, w.key, c.ID, campaign.RecipientsAdd{Recipients: []campaign.RecipientInput{newPerson("2")}})
	require.NoError(t, err)
	st, _ = w.state(c.ID, second.Added[0])
	require.Equal(t, campaign.ApprovalScheduled, st)
	jobs := apptest.Jobs(t, app, campaign.ScheduledApprovalArgs{}.Kind())
	require.Len(t, jobs, 2)
	require.Equal(t, rivertype.JobStateRunning, jobs[0].State)
	require.Equal(t, rivertype.JobStateAvailable, jobs[1].State)

	release.Do(func() { close(held.released) })
	require.Eventually(t, func() bool {
		st, _ := w.state(c.ID, second.Added[0])
		return st == campaign.ApprovalAutoApproved
	}, 20*time.Second, 20*time.Millisecond, "the second job decided the person the first had missed")
}

// Work queued before emails and approvals were River jobs (a row without
// its job) gets its job; work that has one is not queued twice.
func TestRequeueBackgroundWork(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 100_000, 10_000)
	w.env.TopUp(t, w.owner, 50_000)
	added, err := app.Campaigns.AddRecipients(ctx, w.key, c.ID, campaign.RecipientsAdd{Recipients: []campaign.RecipientInput{newPerson("1")}})
	require.NoError(t, err)
	_, err = app.Identity.InviteTeamMember(ctx, w.owner, identity.InviteParams{Email: apptest.UniqueEmail("a"), Role: core.RoleMember})
	require.NoError(t, err)

	n, err := app.RequeueBackgroundWork(ctx)
	require.NoError(t, err)
	require.Zero(t, n, "both already have their job")

	client := apptest.NewJobs(t, app.DB)
	for _, kind := range []string{campaign.ScheduledApprovalArgs{}.Kind(), identity.DeliverEmailArgs{}.Kind()} {
		for _, j := range apptest.Jobs(t, app, kind) {
			_, err := client.JobDelete(ctx, j.ID)
			require.NoError(t, err)
		}
	}
	n, err = app.RequeueBackgroundWork(ctx)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	n, err = app.RequeueBackgroundWork(ctx)
	require.NoError(t, err)
	require.Zero(t, n)

	require.Equal(t, 1, w.runScheduled())
	st, _ := w.state(c.ID, added.Added[0])
	require.Equal(t, campaign.ApprovalAutoApproved, st)
	require.Equal(t, 1, w.env.DeliverEmails(t, identity.LogSender{Log: slog.New(slog.DiscardHandler)}))
}
