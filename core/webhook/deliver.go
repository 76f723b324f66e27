package webhook

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/tracking"
	"github.com/giftwell/giftwell/sql/db"
)

// The delivery headers (Webhook deliveries §2).
const (
	HeaderEventID   = "X-Giftwell-Event-Id"
	HeaderSignature = "X-Giftwell-Signature"
)

// MaxAttempts is how many attempts one cycle makes before the delivery is
// dead.
const MaxAttempts = 8

// The delivery states.
const (
	StatePending   = "pending"
	StateRetrying  = "retrying"
	StateDelivered = "delivered"
	StateDead      = "dead"
	StateCancelled = "cancelled"
)

// maxLastError bounds a delivery's last_error, in bytes.
const maxLastError = 500

// ErrEndpointBusy says an endpoint or its workspace has as many attempts in
// flight as it may have in this process; the attempt waits a moment.
var ErrEndpointBusy = errors.New("webhook: endpoint busy")

// Attempt makes the attempt args names, outside any transaction: it
// builds the event's body (the event as GET /events returns it), signs it
// with a fresh timestamp, posts it through Sender, and records the outcome
// in one transaction, with the next attempt's job on a failure (1, 2, 4
// ... 64 backoff units later) or dead after the eighth. A job of an older
// cycle or attempt, a delivery already delivered, dead or cancelled, or an
// endpoint removed since changes nothing (the last cancels the delivery).
// It returns ErrEndpointBusy when the endpoint or its workspace has as many
// attempts in flight as it may (limits.go), or INTERNAL_ERROR when the
// outcome could not be recorded.
func (s *Service) Attempt(ctx context.Context, args DeliverArgs) error {
	r, err := db.New(s.DB).WebhookDeliveryGet(ctx, args.DeliveryID)
	if core.IsNoRows(err) {
		return nil
	}
	if err != nil {
		return core.Internal(err)
	}
	d := r.WebhookDelivery
	if !current(d, args) {
		return nil
	}
	if r.WebhookEndpoint.RemovedAt != nil {
		return s.cancel(ctx, d)
	}
	item, err := tracking.ItemOf(core.EventFromRow(r.Event))
	if err != nil {
		return err
	}
	body, err := json.Marshal(item)
	if err != nil {
		return core.Internal(err)
	}
	if s.Sender == nil {
		return core.Internal(errors.New("webhook: Service.Sender is nil"))
	}
	release, ok := s.endpointLimits().acquire(d.WorkspaceID, d.EndpointID)
	if !ok {
		return ErrEndpointBusy
	}
	delivered := false
	defer func() { release(delivered) }()
	status, sendErr := s.Sender.Send(ctx, r.WebhookEndpoint.Url, s.header(r.WebhookEndpoint, r.Event.ID, body), body)
	delivered = sendErr == nil && status >= 200 && status < 300
	return s.record(ctx, args, status, sendErr)
}

// header is an attempt's headers: the event ID, and the signature over a
// fresh timestamp and the body.
func (s *Service) header(w db.WebhookEndpoint, eventID string, body []byte) http.Header {
	t := strconv.FormatInt(s.Clock.Now().Unix(), 10)
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "Giftwell-Webhooks/1")
	h.Set(HeaderEventID, eventID)
	h.Set(HeaderSignature, "t="+t+",v1="+Sign(s.secret(w), t, body))
	return h
}

// Sign is v1 of a delivery's signature: lowercase hex of HMAC-SHA256,
// keyed by secret as UTF-8 text, over "<t>.<body>".
func Sign(secret, t string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(t))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// record writes an attempt's outcome, under the delivery's lock and only
// if no other attempt got there first.
func (s *Service) record(ctx context.Context, args DeliverArgs, status int, sendErr error) error {
	return core.AsCoreError(s.InTxJobs(ctx, func(tx pgx.Tx) error {
		q := db.New(tx)
		d, err := q.WebhookDeliveryGetForUpdate(ctx, args.DeliveryID)
		if err != nil {
			return core.Internal(err)
		}
		if !current(d, args) {
			return nil
		}
		now := s.Clock.Now()
		n := int(d.Attempts) + 1
		next := db.WebhookDeliveryRecordAttemptParams{ID: d.ID, Attempts: int32(n), LastStatus: int32(status), UpdatedAt: now}
		switch {
		case sendErr == nil && status >= 200 && status < 300:
			next.State = StateDelivered
		case n >= MaxAttempts:
			next.State = StateDead
		default:
			next.State = StateRetrying
			at := now.Add(s.backoff(n))
			next.NextAt = &at
		}
		next.LastError = failure(status, sendErr)
		if err := q.WebhookDeliveryRecordAttempt(ctx, next); err != nil {
			return core.Internal(err)
		}
		if next.NextAt == nil {
			return nil
		}
		return s.insertAttempt(ctx, tx, DeliverArgs{DeliveryID: d.ID, Cycle: d.Cycle, Attempt: int32(n + 1)}, *next.NextAt)
	}))
}

// cancel ends delivery d of a removed endpoint.
func (s *Service) cancel(ctx context.Context, d db.WebhookDelivery) error {
	return core.AsCoreError(s.InTx(ctx, func(q *db.Queries) error {
		_, err := q.WebhookDeliveriesCancelPending(ctx, db.WebhookDeliveriesCancelPendingParams{UpdatedAt: s.Clock.Now(), EndpointID: d.EndpointID})
		if err != nil {
			return core.Internal(err)
		}
		return nil
	}))
}

// current reports whether args is the attempt delivery d waits for.
func current(d db.WebhookDelivery, args DeliverArgs) bool {
	return (d.State == StatePending || d.State == StateRetrying) && d.Cycle == args.Cycle && d.Attempts+1 == args.Attempt
}

// failure is what last_error says of an attempt: empty on success.
func failure(status int, err error) string {
	var msg string
	switch {
	case err != nil:
		msg = err.Error()
	case status >= 300 && status < 400:
		msg = "redirect (" + strconv.Itoa(status) + ") not followed"
	case status < 200 || status >= 300:
		msg = "answered " + strconv.Itoa(status) + "; only 2xx within 10 seconds is delivered"
	}
	if len(msg) > maxLastError {
		msg = msg[:maxLastError]
	}
	return msg
}

// DeliverWorker works DeliverArgs jobs.
type DeliverWorker struct {
	river.WorkerDefaults[DeliverArgs]
	Webhooks *Service
}

var _ river.Worker[DeliverArgs] = (*DeliverWorker)(nil)

// Work makes the attempt; a busy endpoint snoozes the job a moment.
func (w *DeliverWorker) Work(ctx context.Context, job *river.Job[DeliverArgs]) error {
	err := w.Webhooks.Attempt(ctx, job.Args)
	if errors.Is(err, ErrEndpointBusy) {
		return river.JobSnooze(250 * time.Millisecond)
	}
	return err
}

// Timeout bounds one attempt's job: the receiver's 10 seconds and the
// recording.
func (w *DeliverWorker) Timeout(*river.Job[DeliverArgs]) time.Duration { return 30 * time.Second }
