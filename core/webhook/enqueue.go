package webhook

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// Queue is the River queue deliveries run in, apart from the service's
// other jobs, so that slow receivers never hold those up.
const Queue = "webhooks"

var _ core.EventOutbox = (*Service)(nil)

// errNoGuard is the wiring error of a Service without a URLGuard.
var errNoGuard = errors.New("webhook: Service.Guard is nil")

// DeliverArgs is the River job of one attempt: delivery DeliveryID's
// attempt Attempt (1-8) of cycle Cycle. A job of an older cycle or attempt
// finds the delivery moved on and does nothing.
type DeliverArgs struct {
	DeliveryID string `json:"deliveryId"`
	Cycle      int32  `json:"cycle"`
	Attempt    int32  `json:"attempt"`
}

// Kind names the job.
func (DeliverArgs) Kind() string { return "deliver_webhook" }

// Enqueue records, in the event's transaction, a delivery of ev to each
// active endpoint of its workspace that wants its type, each with the job
// of its first attempt (core.EventOutbox).
func (s *Service) Enqueue(ctx context.Context, tx pgx.Tx, ev core.Event) error {
	rows, err := db.New(tx).WebhookDeliveriesForEvent(ctx, db.WebhookDeliveriesForEventParams{EventID: ev.ID, Now: s.Clock.Now()})
	if err != nil {
		return core.Internal(err)
	}
	for _, r := range rows {
		if err := s.insertAttempt(ctx, tx, DeliverArgs{DeliveryID: r.ID, Cycle: 1, Attempt: 1}, time.Time{}); err != nil {
			return err
		}
	}
	return nil
}

var _ core.EventsOutbox = (*Service)(nil)

// EnqueueMany is Enqueue for several events of one transaction, their
// deliveries recorded in one statement (core.EventsOutbox).
func (s *Service) EnqueueMany(ctx context.Context, tx pgx.Tx, evs []core.Event) error {
	ids := make([]string, len(evs))
	for i, ev := range evs {
		ids[i] = ev.ID
	}
	rows, err := db.New(tx).WebhookDeliveriesForEvents(ctx, db.WebhookDeliveriesForEventsParams{EventIds: ids, Now: s.Clock.Now()})
	if err != nil {
		return core.Internal(err)
	}
	for _, r := range rows {
		if err := s.insertAttempt(ctx, tx, DeliverArgs{DeliveryID: r.ID, Cycle: 1, Attempt: 1}, time.Time{}); err != nil {
			return err
		}
	}
	return nil
}

// insertAttempt inserts the job of one attempt in tx, due at at (now when
// zero). The job is unique by its arguments: a requeue never doubles it.
// River retries a job only when the attempt could not be recorded (the
// database went away); the delivery's own schedule is the delivery's.
func (s *Service) insertAttempt(ctx context.Context, tx pgx.Tx, args DeliverArgs, at time.Time) error {
	_, err := s.InsertJob(ctx, tx, args, attemptOpts(at))
	return err
}

// attemptOpts are an attempt job's options: the webhook queue, due at at.
func attemptOpts(at time.Time) *river.InsertOpts {
	return &river.InsertOpts{Queue: Queue, MaxAttempts: 5, ScheduledAt: at,
		UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: core.UnfinishedJobStates()}}
}
