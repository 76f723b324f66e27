package notify

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
)

var _ core.EventOutbox = (*Service)(nil)

// SlotLength is how long adds share one email job: the people who start
// waiting on a playbook within one slot bring one job, which runs just
// after the slot ends, so the first email comes within a minute of the
// first person.
const SlotLength = 30 * time.Second

// slotGrace is how long after its slot's end a job runs: a margin for the
// clocks of the service and the database to differ, so that no add of
// the slot finds its job already running.
const slotGrace = 5 * time.Second

// Hourly is the least time between two emails of one kind about one
// playbook (or, for balance_stopped, one workspace).
const Hourly = time.Hour

// NoticeArgs is the River job that sends the emails of one kind about one
// playbook (CampaignID) or the whole workspace (CampaignID "", for
// balance_stopped) for the writes of one slot (Slot, the start of the slot
// in seconds since 1970 divided by SlotLength). It is unique by its
// arguments, so every write of a slot inserts one job.
type NoticeArgs struct {
	WorkspaceID string `json:"workspace_id" river:"unique"`
	CampaignID  string `json:"campaign_id" river:"unique"`
	Notice      Kind   `json:"notice" river:"unique"`
	Slot        int64  `json:"slot" river:"unique"`
}

// Kind names the job.
func (NoticeArgs) Kind() string { return "notify_approvers" }

// slotOf is the slot of time t.
func slotOf(t time.Time) int64 { return t.Unix() / int64(SlotLength/time.Second) }

// slotRuns is when the job of slot runs: just after the slot ends.
func slotRuns(slot int64) time.Time {
	return time.Unix((slot+1)*int64(SlotLength/time.Second), 0).UTC().Add(slotGrace)
}

// noticeOpts are a NoticeArgs job's insert options: due just after its
// slot, one unfinished job per arguments.
func noticeOpts(slot int64) *river.InsertOpts {
	return &river.InsertOpts{ScheduledAt: slotRuns(slot), MaxAttempts: 5,
		UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: core.UnfinishedJobStates()}}
}

// Enqueue inserts, in the event's transaction, the email job an event
// calls for (core.EventOutbox): a person who starts waiting on a playbook
// (playbook.person_waiting) brings the playbook's waiting job, or the
// workspace's balance_stopped job when auto-approve stopped for the
// balance (reason low_balance); a gift declined or expired
// (send.status_changed) brings its campaign's declined_expired job. That
// is one statement on a write that makes someone wait, and none on any
// other event.
func (s *Service) Enqueue(ctx context.Context, tx pgx.Tx, ev core.Event) error {
	var args NoticeArgs
	switch ev.Type {
	case core.EventPlaybookPersonWaiting:
		var d struct {
			Reason string `json:"reason"`
		}
		_ = json.Unmarshal(ev.Data, &d) // our own event; a bad one is waiting
		args = NoticeArgs{WorkspaceID: ev.WorkspaceID, CampaignID: ev.CampaignID, Notice: KindWaiting}
		if campaign.ApprovalReason(d.Reason) == campaign.ReasonLowBalance {
			args = NoticeArgs{WorkspaceID: ev.WorkspaceID, Notice: KindBalanceStopped}
		}
	case core.EventSendStatusChanged:
		var d struct {
			To string `json:"to"`
		}
		if json.Unmarshal(ev.Data, &d) != nil || (d.To != "declined" && d.To != "expired") || ev.CampaignID == "" {
			return nil
		}
		args = NoticeArgs{WorkspaceID: ev.WorkspaceID, CampaignID: ev.CampaignID, Notice: KindDeclinedExpired}
	default:
		return nil
	}
	args.Slot = slotOf(s.Clock.Now())
	_, err := s.InsertJob(ctx, tx, args, noticeOpts(args.Slot))
	return err
}

// Outboxes hands every event to each of its outboxes in turn (webhooks,
// then these emails): the kernel's one Outbox.
type Outboxes []core.EventOutbox

var _ core.EventOutbox = Outboxes(nil)

var _ core.EventsOutbox = Outboxes(nil)

// EnqueueMany hands evs to each outbox in tx, all at once to one that
// takes several (core.EventsOutbox), stopping at the first error.
func (o Outboxes) EnqueueMany(ctx context.Context, tx pgx.Tx, evs []core.Event) error {
	for _, out := range o {
		if many, ok := out.(core.EventsOutbox); ok {
			if err := many.EnqueueMany(ctx, tx, evs); err != nil {
				return err
			}
			continue
		}
		for _, ev := range evs {
			if err := out.Enqueue(ctx, tx, ev); err != nil {
				return err
			}
		}
	}
	return nil
}

// Enqueue hands ev to each outbox in tx, stopping at the first error.
func (o Outboxes) Enqueue(ctx context.Context, tx pgx.Tx, ev core.Event) error {
	for _, out := range o {
		if err := out.Enqueue(ctx, tx, ev); err != nil {
			return err
		}
	}
	return nil
}
