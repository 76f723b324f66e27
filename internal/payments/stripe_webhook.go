package payments

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/giftwell/giftwell/core/billing"
)

// stripeTimeout bounds one call to Stripe.
const stripeTimeout = 30 * time.Second

// maxStripeEvent is the largest webhook body read.
const maxStripeEvent = 256 << 10

// EventApplier applies a verified processor event (core/billing's Service).
type EventApplier interface {
	ApplyProcessorEvent(ctx context.Context, ev billing.ProcessorEvent) error
}

// StripeWebhook is the receiver of Stripe's events at /stripe/webhook: each
// body is verified with webhook.ConstructEventWithOptions against Secret
// (STRIPE_WEBHOOK_SECRET, 300 seconds of tolerance) and handed to Events,
// which applies checkout.session.completed, checkout.session.expired and
// charge.refunded exactly once. A bad signature is 400; a failure to apply
// is 500, so Stripe delivers it again; anything else 200.
type StripeWebhook struct {
	Secret string
	Events EventApplier
	Log    *slog.Logger
}

// ServeHTTP implements http.Handler.
func (h StripeWebhook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxStripeEvent+1))
	if err != nil || len(body) > maxStripeEvent {
		http.Error(w, "unreadable or oversized body", http.StatusBadRequest)
		return
	}
	ev, err := webhook.ConstructEventWithOptions(body, r.Header.Get("Stripe-Signature"), h.Secret,
		webhook.ConstructEventOptions{IgnoreAPIVersionMismatch: true})
	if err != nil {
		h.log().WarnContext(r.Context(), "stripe webhook refused", "err", err)
		http.Error(w, "signature verification failed", http.StatusBadRequest)
		return
	}
	pe, ok := decodeStripeEvent(ev.ID, string(ev.Type), ev.Data.Raw)
	if !ok {
		w.WriteHeader(http.StatusOK)
		return
	}
	if err := h.Events.ApplyProcessorEvent(r.Context(), pe); err != nil {
		h.log().ErrorContext(r.Context(), "stripe event not applied", "event", ev.ID, "type", ev.Type, "err", err)
		http.Error(w, "not applied; deliver again", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (h StripeWebhook) log() *slog.Logger {
	if h.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return h.Log
}

// stripeObject is the part of a Checkout Session or Charge the events use.
type stripeObject struct {
	ID                string          `json:"id"`
	ClientReferenceID string          `json:"client_reference_id"`
	PaymentStatus     string          `json:"payment_status"`
	PaymentIntent     json.RawMessage `json:"payment_intent"`
	AmountRefunded    int64           `json:"amount_refunded"`
}

// decodeStripeEvent reads the events billing applies; ok is false for any
// other type.
func decodeStripeEvent(id, typ string, raw json.RawMessage) (billing.ProcessorEvent, bool) {
	t := billing.ProcessorEventType(typ)
	switch t {
	case billing.EventSessionCompleted, billing.EventSessionExpired, billing.EventChargeRefunded:
	default:
		return billing.ProcessorEvent{}, false
	}
	var o stripeObject
	if err := json.Unmarshal(raw, &o); err != nil {
		return billing.ProcessorEvent{}, false
	}
	ev := billing.ProcessorEvent{ID: id, Processor: StripeProcessorName, Type: t, PaymentRef: expandableID(o.PaymentIntent)}
	if t == billing.EventChargeRefunded {
		ev.RefundedCents = o.AmountRefunded
		return ev, ev.PaymentRef != ""
	}
	ev.SessionID, ev.ClientReference = o.ID, o.ClientReferenceID
	ev.Paid = o.PaymentStatus == "paid" || o.PaymentStatus == "no_payment_required"
	return ev, ev.SessionID != ""
}

// expandableID is the ID of a field Stripe sends as an ID or an object.
func expandableID(raw json.RawMessage) string {
	var id string
	if json.Unmarshal(raw, &id) == nil {
		return id
	}
	var obj struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(raw, &obj) == nil {
		return obj.ID
	}
	return ""
}
