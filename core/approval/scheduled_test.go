package approval_test

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
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
)

// heldApprovals works approval jobs with core's worker, but its first job,
// once done deciding, waits for release before it returns: the moment
// between a job's last look at the queue and River marking it completed.
type heldApprovals struct {
	river.WorkerDefaults[campaign.ScheduledApprovalArgs]
	inner    *approval.ScheduledApprovalWorker
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

	held := &heldApprovals{inner: &approval.ScheduledApprovalWorker{Approvals: app.Approvals}, entered: make(chan struct{}), released: make(chan struct{})}
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

// An add that finds the playbook's approval job queued queues none of its
// own: the job's last look waits for that add, then decides its person.
func TestAddBesideAQueuedApprovalJobQueuesNone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	// The race of an add with the job, each deciding in its own
	// transaction: no group commit decides the person the add leaves.
	app.Approvals.NoGroupCommit = true
	c := w.playbook("gourmet-snack-crate", 100_000, 10_000)
	w.env.TopUp(t, w.owner, 50_000)
	kind := campaign.ScheduledApprovalArgs{}.Kind()

	// Another approval holds the balance: person 1 is scheduled and queues the job.
	balance := w.holdBalance()
	first := w.add(c.ID, "1")
	require.Equal(t, campaign.ApprovalScheduled, first.Approval.State)
	require.Len(t, apptest.Jobs(t, app, kind), 1)
	require.True(t, w.approvalJobQueued(c.ID))

	// Person 2's add stops in its commit, holding the playbook shared, after
	// it found the job queued: the roster's counter row is held.
	roster, err := app.DB.Begin(ctx)
	require.NoError(t, err)
	t.Cleanup(func() { _ = roster.Rollback(ctx) })
	_, err = roster.Exec(ctx, `SELECT 1 FROM campaign_roster_sizes WHERE campaign_id = $1 FOR UPDATE`, c.ID)
	require.NoError(t, err)
	type added struct {
		res approval.AddPersonResult
		err error
	}
	second := make(chan added, 1)
	go func() {
		res, err := app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: newPerson("2")})
		second <- added{res, err}
	}()
	require.Eventually(t, func() bool { return w.env.LockWaiters(t) == 1 }, 10*time.Second, 10*time.Millisecond)

	// The job runs: it decides person 1, and its last look waits for the add.
	require.NoError(t, balance.Rollback(ctx))
	decided := make(chan int, 1)
	go func() {
		n, err := app.Approvals.RunScheduledApprovals(ctx, w.env.WorkspaceID, c.ID)
		assert.NoError(t, err)
		decided <- n
	}()
	require.Eventually(t, func() bool {
		st, _ := w.state(c.ID, first.RecipientID)
		return st == campaign.ApprovalAutoApproved && w.env.LockWaiters(t) == 2
	}, 10*time.Second, 10*time.Millisecond, "person 1 decided, the last look waiting beside the add")

	require.NoError(t, roster.Rollback(ctx))
	got := <-second
	require.NoError(t, got.err)
	require.Equal(t, campaign.ApprovalScheduled, got.res.Approval.State)
	require.Equal(t, 2, <-decided, "the run decided person 2 as well")
	st, _ := w.state(c.ID, got.res.RecipientID)
	require.Equal(t, campaign.ApprovalAutoApproved, st)
	require.Len(t, apptest.Jobs(t, app, kind), 1, "person 2's add queued no job")
	require.False(t, w.approvalJobQueued(c.ID), "the run's last look cleared the playbook's queued job")

	// The next person scheduled queues a job again.
	balance = w.holdBalance()
	require.Equal(t, campaign.ApprovalScheduled, w.add(c.ID, "3").Approval.State)
	require.True(t, w.approvalJobQueued(c.ID))
	require.NoError(t, balance.Rollback(ctx))
	require.Equal(t, 2, w.requireOneDebitPerGift(), "two gifts so far")
}
