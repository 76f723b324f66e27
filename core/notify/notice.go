package notify

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// NoticeWorker works NoticeArgs jobs (Service.Notice). A job that comes
// within the hour of the last email of its kind leaves one follow-up job
// for the end of that hour, or, when it is that follow-up, sleeps until
// then (River's snooze).
type NoticeWorker struct {
	river.WorkerDefaults[NoticeArgs]
	Notify *Service
}

var _ river.Worker[NoticeArgs] = (*NoticeWorker)(nil)

// Work sends the job's emails, or puts them off to the end of the hour.
func (w *NoticeWorker) Work(ctx context.Context, job *river.Job[NoticeArgs]) error {
	res, err := w.Notify.Notice(ctx, job.Args)
	if err != nil {
		return err
	}
	if oerr := river.RecordOutput(ctx, res); oerr != nil {
		w.Notify.Log.WarnContext(ctx, "notify: record output", slog.Any("err", oerr))
	}
	if res.sleep > 0 {
		return river.JobSnooze(res.sleep)
	}
	return nil
}

// NoticeResult is what one NoticeArgs job did.
type NoticeResult struct {
	// Emails is how many emails it queued (one per person who gets them).
	Emails int `json:"emails"`
	// About is how many people or gifts the emails were about; 0 when
	// there was nothing to say (nobody waits any more).
	About int `json:"about"`
	// Later is when the next email may go, when this job came within the
	// hour of the last one: a follow-up job looks again then.
	Later *time.Time `json:"later,omitempty"`
	// sleep is how long this job, being the follow-up, sleeps.
	sleep time.Duration
}

// Notice sends the emails of args: for waiting and balance_stopped, only
// while people still wait and at most one an hour (a job within the hour
// leaves a follow-up for its end); for declined_expired, the gifts declined
// or expired since the last one. The email is queued in identity's outbox
// in the transaction that records it as sent, so two jobs never send it
// twice. It returns INTERNAL_ERROR when the database fails.
func (s *Service) Notice(ctx context.Context, args NoticeArgs) (NoticeResult, error) {
	var res NoticeResult
	err := pgx.BeginFunc(ctx, s.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		now := s.Clock.Now().UTC()
		last, err := lastSent(ctx, q, args)
		if err != nil {
			return err
		}
		if args.Notice != KindDeclinedExpired && now.Before(last.Add(Hourly)) {
			due := last.Add(Hourly)
			res.Later = &due
			if args.Slot == slotOf(due) {
				res.sleep = due.Sub(now)
				return nil
			}
			follow := args
			follow.Slot = slotOf(due)
			_, err := s.InsertJob(ctx, tx, follow, noticeOpts(follow.Slot))
			return err
		}
		m, ownerID, about, err := s.compose(ctx, q, args, last, now)
		if err != nil || about == 0 {
			return err
		}
		people, err := approvers(ctx, q, args.WorkspaceID, args.Notice, ownerID)
		if err != nil {
			return err
		}
		if res.Emails, err = s.queueTo(ctx, tx, args.WorkspaceID, args.Notice, people, m); err != nil {
			return err
		}
		res.About = about
		return markSent(ctx, q, args, now)
	})
	if err != nil {
		return NoticeResult{}, core.AsCoreError(err)
	}
	return res, nil
}

// compose writes the email of args, as of now (last is when the last one
// went): the message, the campaign's owner for declined_expired, and how
// many people or gifts it is about (0: nothing to say).
func (s *Service) compose(ctx context.Context, q *db.Queries, args NoticeArgs, last, now time.Time) (message, string, int, error) {
	switch args.Notice {
	case KindWaiting:
		items, err := s.Approvals.WaitingQueue(ctx, args.WorkspaceID, args.CampaignID)
		if err != nil {
			return message{}, "", 0, err
		}
		w := summarize(items)
		return s.waitingMessage(args.CampaignID, w), "", w.People, nil
	case KindBalanceStopped:
		items, err := s.Approvals.WaitingQueue(ctx, args.WorkspaceID, "")
		if err != nil {
			return message{}, "", 0, err
		}
		f := fundsWait(items)
		return s.balanceMessage(f), "", f.People, nil
	case KindDeclinedExpired:
		c, err := q.NotificationCampaign(ctx, db.NotificationCampaignParams{WorkspaceID: args.WorkspaceID, ID: args.CampaignID})
		if core.IsNoRows(err) {
			return message{}, "", 0, nil
		}
		if err != nil {
			return message{}, "", 0, core.Internal(err)
		}
		if !isPerson(c.CreatedBy) {
			return message{}, "", 0, nil
		}
		gifts, err := q.NotificationEndedGifts(ctx, db.NotificationEndedGiftsParams{
			WorkspaceID: args.WorkspaceID, CampaignID: args.CampaignID, Since: last, Until: now,
		})
		if err != nil {
			return message{}, "", 0, core.Internal(err)
		}
		return s.endedMessage(c.ID, c.Name, gifts), c.CreatedBy, len(gifts), nil
	}
	return message{}, "", 0, nil
}
