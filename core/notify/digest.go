package notify

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/sql/db"
)

// digestEvery is the least time between two digests of one workspace: a
// day, less a margin so that a daily job a little early still sends.
const digestEvery = 20 * time.Hour

// DigestArgs is the daily River job (a periodic job) that sends the digest
// of every workspace where someone chose it.
type DigestArgs struct{}

// Kind names the job.
func (DigestArgs) Kind() string { return "notify_digest" }

// DigestWorker works DigestArgs jobs (Service.Digests).
type DigestWorker struct {
	river.WorkerDefaults[DigestArgs]
	Notify *Service
}

var _ river.Worker[DigestArgs] = (*DigestWorker)(nil)

// Work sends the day's digests.
func (w *DigestWorker) Work(ctx context.Context, _ *river.Job[DigestArgs]) error {
	_, err := w.Notify.Digests(ctx)
	return err
}

// Digests sends the digest of every workspace where someone chose it and
// whose last digest is at least 20 hours old, and returns how many emails
// it queued. It returns the first error met (the other workspaces are
// still tried).
func (s *Service) Digests(ctx context.Context) (int, error) {
	ids, err := db.New(s.DB).NotificationDigestWorkspaces(ctx)
	if err != nil {
		return 0, core.Internal(err)
	}
	var (
		sent     int
		firstErr error
	)
	for _, id := range ids {
		n, err := s.Digest(ctx, id)
		sent += n
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("workspace %s: %w", id, err)
		}
	}
	return sent, firstErr
}

// Digest sends workspaceID's digest to the owners and admins who chose it,
// unless one went out in the last 20 hours: who waits, what was decided,
// declined and expired since the last digest (at most a day back), and the
// balance. It returns how many emails it queued, or INTERNAL_ERROR.
func (s *Service) Digest(ctx context.Context, workspaceID string) (int, error) {
	items, err := s.Approvals.WaitingQueue(ctx, workspaceID, "")
	if err != nil {
		return 0, err
	}
	sent := 0
	err = pgx.BeginFunc(ctx, s.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		args := NoticeArgs{WorkspaceID: workspaceID, Notice: KindDigest}
		now := s.Clock.Now().UTC()
		last, err := lastSent(ctx, q, args)
		if err != nil || now.Before(last.Add(digestEvery)) {
			return err
		}
		ws, err := q.WorkspaceGetByID(ctx, workspaceID)
		if core.IsNoRows(err) {
			return nil
		}
		if err != nil {
			return core.Internal(err)
		}
		since := now.Add(-24 * time.Hour)
		if last.After(since) {
			since = last
		}
		counts, err := q.NotificationDigestCounts(ctx, db.NotificationDigestCountsParams{WorkspaceID: workspaceID, Mode: ws.Mode, Since: since})
		if err != nil {
			return core.Internal(err)
		}
		people, err := approvers(ctx, q, workspaceID, KindDigest, "")
		if err != nil {
			return err
		}
		if sent, err = s.queueTo(ctx, tx, workspaceID, KindDigest, people, s.digestMessage(ws.Name, items, counts)); err != nil {
			return err
		}
		return markSent(ctx, q, args, now)
	})
	if err != nil {
		return 0, core.AsCoreError(err)
	}
	return sent, nil
}

// digestMessage is the digest of workspace name.
func (s *Service) digestMessage(name string, items []approval.QueueItem, c db.NotificationDigestCountsRow) message {
	var b strings.Builder
	fmt.Fprintf(&b, "Your day in Giftwell (%s).\n\n", name)
	byPlaybook := map[string][]approval.QueueItem{}
	var order []string
	for _, it := range items {
		if it.State != campaign.ApprovalWaiting {
			continue
		}
		if _, ok := byPlaybook[it.CampaignID]; !ok {
			order = append(order, it.CampaignID)
		}
		byPlaybook[it.CampaignID] = append(byPlaybook[it.CampaignID], it)
	}
	if len(order) == 0 {
		b.WriteString("Nobody waits for approval.\n")
	} else {
		b.WriteString("Waiting for approval:\n")
		for _, id := range order {
			w := summarize(byPlaybook[id])
			fmt.Fprintf(&b, "- %s: %s, %s. %s\n  %s\n", w.Name, people(w.People), core.Dollars(w.Cents), w.Reasons[0].Why, s.Config.QueueURL(id))
		}
	}
	fmt.Fprintf(&b, "\nSince the last digest: %s approved, %s skipped, %s declined by the recipient, %s expired unused.\n",
		gifts1(int(c.Approved)), people(int(c.Skipped)), gifts1(int(c.Declined)), gifts1(int(c.Expired)))
	fmt.Fprintf(&b, "Balance: %s. Top up: %s\n", core.Dollars(c.BalanceCents), s.Config.BalanceURL())
	return message{Subject: "Your Giftwell digest: " + waitingWords(order, byPlaybook), Text: b.String()}
}

// waitingWords is the digest's subject: how many wait.
func waitingWords(order []string, byPlaybook map[string][]approval.QueueItem) string {
	n := 0
	for _, id := range order {
		n += len(byPlaybook[id])
	}
	if n == 0 {
		return "nobody waits"
	}
	if n == 1 {
		return "1 person waits"
	}
	return fmt.Sprintf("%d people wait", n)
}
