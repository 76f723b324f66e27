package webhook

import (
	"context"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// The delivery sources: gift (the feed's send.* events) and playbook
// (playbook.person_waiting).
const (
	SourceGift     = "gift"
	SourcePlaybook = "playbook"
)

// The deliveries list's page sizes.
const (
	DefaultDeliveryLimit = 50
	MaxDeliveryLimit     = 100
)

// Delivery is one delivery as the deliveries list shows it, in the spec's
// snake_case.
type Delivery struct {
	ID         string `json:"id" jsonschema:"the delivery (dlv_...)"`
	EventSeq   int64  `json:"event_seq" jsonschema:"the event's sequence number; pass the last as before for the next page"`
	Type       string `json:"type" jsonschema:"the event type"`
	Source     string `json:"source" jsonschema:"gift or playbook" schema:"enum=gift|playbook"`
	State      string `json:"state" jsonschema:"pending (not tried yet), retrying (failed; next_at says when it is tried again), delivered, dead (8 attempts failed) or cancelled (the endpoint was removed)" schema:"enum=pending|retrying|delivered|dead|cancelled"`
	Attempts   int    `json:"attempts" jsonschema:"attempts made, over every cycle"`
	NextAt     *int64 `json:"next_at" jsonschema:"when the next attempt is due, Unix milliseconds; null when none is"`
	LastStatus int    `json:"last_status" jsonschema:"the HTTP status of the last attempt; 0 when none came back"`
	LastError  string `json:"last_error,omitempty" jsonschema:"why the last attempt failed; absent after a success or before any attempt"`
}

// DeliveryPage is a page of an endpoint's deliveries, newest first.
type DeliveryPage struct {
	Items []Delivery `json:"items" jsonschema:"deliveries, newest event first"`
	// NextBefore continues the list; null on the last page.
	NextBefore *string `json:"nextBefore" jsonschema:"pass as before for the next page; null on the last page"`
}

// DeliveryQuery narrows the deliveries list.
type DeliveryQuery struct {
	// Source is gift (default) or playbook.
	Source string
	// Limit is 1-100, default 50.
	Limit int
	// Before is a nextBefore: only deliveries of older events.
	Before string
}

// Deliveries returns endpoint endpointID's deliveries of one source, newest
// event first. It returns VALIDATION_ERROR naming source, limit or before,
// NOT_FOUND naming id (another workspace's or none; a removed endpoint's
// deliveries stay readable), or the codes of Authorize (ActReadWebhooks).
func (s *Service) Deliveries(ctx context.Context, p core.Principal, endpointID string, in DeliveryQuery) (DeliveryPage, error) {
	if err := core.Authorize(p, core.ActReadWebhooks, s.Config.WebhooksURL()); err != nil {
		return DeliveryPage{}, err
	}
	source, err := checkSource(in.Source)
	if err != nil {
		return DeliveryPage{}, err
	}
	limit := in.Limit
	switch {
	case limit == 0:
		limit = DefaultDeliveryLimit
	case limit < 1 || limit > MaxDeliveryLimit:
		return DeliveryPage{}, core.Invalid("limit", "must be between 1 and %d", MaxDeliveryLimit)
	}
	var before int64
	if in.Before != "" {
		before, err = strconv.ParseInt(in.Before, 10, 64)
		if err != nil || before < 1 {
			return DeliveryPage{}, core.Invalid("before", "must be a nextBefore from this list")
		}
	}
	q := db.New(s.DB)
	if _, err := s.endpoint(ctx, q, p.WorkspaceID, endpointID); err != nil {
		return DeliveryPage{}, err
	}
	rows, err := q.WebhookDeliveryList(ctx, db.WebhookDeliveryListParams{
		EndpointID: endpointID, Source: source, BeforeSeq: before, MaxRows: int32(limit + 1),
	})
	if err != nil {
		return DeliveryPage{}, core.Internal(err)
	}
	page := DeliveryPage{Items: make([]Delivery, 0, min(len(rows), limit))}
	for i, r := range rows {
		if i == limit {
			next := strconv.FormatInt(rows[limit-1].EventSeq, 10)
			page.NextBefore = &next
			break
		}
		page.Items = append(page.Items, deliveryFromRow(r))
	}
	return page, nil
}

// Retry starts a new cycle of up to 8 attempts for delivery deliveryID of
// endpoint endpointID, due now: for a dead delivery, or one retrying after
// a failure (its pending attempt is superseded). It returns the delivery,
// or VALIDATION_ERROR naming source, NOT_FOUND naming id or deliveryId,
// INVALID_REQUEST_STATE naming deliveryId for one delivered, cancelled or
// not tried yet, or the codes of Authorize (ActReadWebhooks: reading and
// retrying deliveries share the row).
func (s *Service) Retry(ctx context.Context, p core.Principal, endpointID, deliveryID, source string) (Delivery, error) {
	if err := core.Authorize(p, core.ActReadWebhooks, s.Config.WebhooksURL()); err != nil {
		return Delivery{}, err
	}
	src, err := checkSource(source)
	if err != nil {
		return Delivery{}, err
	}
	var out Delivery
	err = s.InTxJobs(ctx, func(tx pgx.Tx) error {
		q := db.New(tx)
		w, err := s.endpoint(ctx, q, p.WorkspaceID, endpointID)
		if err != nil {
			return err
		}
		d, err := q.WebhookDeliveryGetForUpdate(ctx, deliveryID)
		if core.IsNoRows(err) || (err == nil && (d.EndpointID != w.ID || d.Source != src)) {
			return core.FieldError(core.CodeNotFound, "deliveryId", "no %s delivery %s for endpoint %s", src, core.Clip(deliveryID, 60), w.ID)
		}
		if err != nil {
			return core.Internal(err)
		}
		switch {
		case w.RemovedAt != nil || d.State == StateCancelled:
			return core.FieldError(core.CodeInvalidRequestState, "deliveryId", "delivery %s was cancelled: its endpoint was removed", d.ID)
		case d.State == StateDelivered:
			return core.FieldError(core.CodeInvalidRequestState, "deliveryId", "delivery %s was delivered; there is nothing to retry", d.ID)
		case d.State == StatePending:
			return core.FieldError(core.CodeInvalidRequestState, "deliveryId", "delivery %s has not been tried yet; it is on its way", d.ID)
		}
		now := s.Clock.Now()
		if err := q.WebhookDeliveryRestart(ctx, db.WebhookDeliveryRestartParams{Now: now, ID: d.ID}); err != nil {
			return core.Internal(err)
		}
		d.State, d.Attempts, d.Cycle, d.NextAt, d.UpdatedAt = StatePending, 0, d.Cycle+1, &now, now
		if err := s.insertAttempt(ctx, tx, DeliverArgs{DeliveryID: d.ID, Cycle: d.Cycle, Attempt: 1}, time.Time{}); err != nil {
			return err
		}
		out = deliveryFromRow(d)
		return nil
	})
	return out, core.AsCoreError(err)
}

// RequeueDeliveries inserts the job of every delivery that waits for an
// attempt (a no-op for those whose job exists): serve runs it at start.
// It returns how many jobs it inserted.
func (s *Service) RequeueDeliveries(ctx context.Context) (int, error) {
	n := 0
	err := s.InTxJobs(ctx, func(tx pgx.Tx) error {
		rows, err := db.New(tx).WebhookDeliveriesDue(ctx)
		if err != nil {
			return core.Internal(err)
		}
		for _, r := range rows {
			var at time.Time
			if r.NextAt != nil {
				at = *r.NextAt
			}
			res, err := s.InsertJob(ctx, tx, DeliverArgs{DeliveryID: r.ID, Cycle: r.Cycle, Attempt: r.Attempts + 1}, attemptOpts(at))
			if err != nil {
				return err
			}
			if !res.UniqueSkippedAsDuplicate {
				n++
			}
		}
		return nil
	})
	return n, core.AsCoreError(err)
}

// endpoint reads a workspace's endpoint (removed or not), or NOT_FOUND
// naming id.
func (s *Service) endpoint(ctx context.Context, q *db.Queries, workspaceID, id string) (db.WebhookEndpoint, error) {
	w, err := q.WebhookEndpointGet(ctx, db.WebhookEndpointGetParams{WorkspaceID: workspaceID, ID: id})
	if core.IsNoRows(err) {
		return db.WebhookEndpoint{}, core.FieldError(core.CodeNotFound, "id", "no webhook endpoint %s in this workspace", core.Clip(id, 60))
	}
	if err != nil {
		return db.WebhookEndpoint{}, core.Internal(err)
	}
	return w, nil
}

// checkSource validates a source; "" is gift.
func checkSource(source string) (string, error) {
	switch source {
	case "", SourceGift:
		return SourceGift, nil
	case SourcePlaybook:
		return SourcePlaybook, nil
	}
	return "", core.Invalid("source", "must be gift or playbook")
}

// deliveryFromRow maps a stored delivery.
func deliveryFromRow(d db.WebhookDelivery) Delivery {
	out := Delivery{
		ID: d.ID, EventSeq: d.EventSeq, Type: d.Type, Source: d.Source, State: d.State, Attempts: int(d.TotalAttempts),
		LastStatus: int(d.LastStatus), LastError: d.LastError,
	}
	if d.NextAt != nil {
		ms := d.NextAt.UnixMilli()
		out.NextAt = &ms
	}
	return out
}
