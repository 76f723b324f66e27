package core

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/sql/db"
)

// EventOutbox is handed every event RecordEvent writes, in the event's
// transaction: the webhook subject records a delivery and inserts its job
// there for each endpoint that wants the event, so a delivery exists
// exactly when its event committed. giftwell.New sets it.
type EventOutbox interface {
	Enqueue(ctx context.Context, tx pgx.Tx, ev Event) error
}

// EventsOutbox is an EventOutbox that takes several events of one
// transaction at once (RecordEvents), in fewer statements than one by one.
type EventsOutbox interface {
	EnqueueMany(ctx context.Context, tx pgx.Tx, evs []Event) error
}

// EventType is the discriminator of an event (the feed's and webhooks' `type`).
type EventType string

// The event types of the spec's Events table.
const (
	EventSendCreated          EventType = "send.created"
	EventSendGiftLinkChanged  EventType = "send.gift_link_changed"
	EventSendAddressConfirmed EventType = "send.address_confirmed"
	EventSendLinkOpened       EventType = "send.link_opened"
	EventSendStatusChanged    EventType = "send.status_changed"
	EventSendOrderChanged     EventType = "send.order_changed"
	EventSendOutcomeReported  EventType = "send.outcome_reported"
	EventSendTrackingChanged  EventType = "send.tracking_changed"
	EventSendAutoApproved     EventType = "send.auto_approved"
	// EventPlaybookPersonWaiting is webhook-only: it has no feed cursor.
	EventPlaybookPersonWaiting EventType = "playbook.person_waiting"
)

// EventTypes lists every event type in the spec's order.
func EventTypes() []EventType {
	return []EventType{EventSendCreated, EventSendGiftLinkChanged, EventSendAddressConfirmed, EventSendLinkOpened,
		EventSendStatusChanged, EventSendOrderChanged, EventSendOutcomeReported, EventSendTrackingChanged,
		EventSendAutoApproved, EventPlaybookPersonWaiting}
}

// InFeed reports whether events of type t appear in the event feed
// (GET /events); playbook.person_waiting is delivered by webhooks only.
func (t EventType) InFeed() bool { return t != EventPlaybookPersonWaiting }

// Event is one recorded change, as the feed and webhook deliveries carry
// it. It never holds addresses, emails, notes or gift links.
type Event struct {
	ID          string          `json:"id" jsonschema:"the event ID (evt_...), identical on every delivery"`
	Seq         int64           `json:"seq" jsonschema:"the order the event was recorded in; the feed orders by the writing transaction first (core/tracking)"`
	Type        EventType       `json:"type" jsonschema:"what happened"`
	Mode        Mode            `json:"mode" jsonschema:"test or live, as the gift was created" schema:"enum=test|live"`
	CampaignID  string          `json:"campaignId,omitempty" jsonschema:"the campaign"`
	SendID      string          `json:"sendId,omitempty" jsonschema:"the gift, when the event is about one"`
	RecipientID string          `json:"recipientId,omitempty" jsonschema:"the roster person"`
	Data        json.RawMessage `json:"data" jsonschema:"the type's own fields"`
	CreatedAt   time.Time       `json:"createdAt" jsonschema:"when it happened"`
	// WorkspaceID is the workspace the event belongs to.
	WorkspaceID string `json:"-"`
	// Xid is the ID of the transaction that wrote the event: with Seq, its
	// place in the feed.
	Xid uint64 `json:"-"`
}

// EventRecord is an event to record inside a write's transaction.
type EventRecord struct {
	WorkspaceID string
	Type        EventType
	Mode        Mode
	CampaignID  string
	SendID      string
	RecipientID string
	// data holds the type's own fields; it must never carry an address,
	// email, note or gift link.
	Data map[string]any
}

// RecordEvent writes ev in the caller's transaction tx, so that an event
// exists exactly when the change it reports was committed, and hands it to
// the Outbox (webhook deliveries and their jobs) in the same transaction.
func (a *Kernel) RecordEvent(ctx context.Context, tx pgx.Tx, ev EventRecord) error {
	q := db.New(tx)
	data := ev.Data
	if data == nil {
		data = map[string]any{}
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return Internal(err)
	}
	row, err := q.EventInsert(ctx, db.EventInsertParams{
		ID: NewID(PrefixEvent), WorkspaceID: ev.WorkspaceID, Type: string(ev.Type), Mode: string(ev.Mode),
		CampaignID: ev.CampaignID, SendID: ev.SendID, RecipientID: ev.RecipientID, Data: raw,
		InFeed: ev.Type.InFeed(), CreatedAt: a.Clock.Now(),
	})
	if err != nil {
		return Internal(err)
	}
	if a.Outbox == nil {
		return nil
	}
	return a.Outbox.Enqueue(ctx, tx, EventFromRow(row))
}

// RecordEvents writes evs in the caller's transaction tx, in order, in one
// statement, and hands them to the Outbox together (EnqueueMany when it
// takes several, else one by one): RecordEvent for a group of changes,
// such as a group commit's gifts.
func (a *Kernel) RecordEvents(ctx context.Context, tx pgx.Tx, evs []EventRecord) error {
	switch len(evs) {
	case 0:
		return nil
	case 1:
		return a.RecordEvent(ctx, tx, evs[0])
	}
	p := db.EventInsertManyParams{CreatedAt: a.Clock.Now()}
	for _, ev := range evs {
		data := ev.Data
		if data == nil {
			data = map[string]any{}
		}
		raw, err := json.Marshal(data)
		if err != nil {
			return Internal(err)
		}
		p.Ids = append(p.Ids, NewID(PrefixEvent))
		p.WorkspaceIds = append(p.WorkspaceIds, ev.WorkspaceID)
		p.Types = append(p.Types, string(ev.Type))
		p.Modes = append(p.Modes, string(ev.Mode))
		p.CampaignIds = append(p.CampaignIds, ev.CampaignID)
		p.SendIds = append(p.SendIds, ev.SendID)
		p.RecipientIds = append(p.RecipientIds, ev.RecipientID)
		p.Datas = append(p.Datas, raw)
		p.InFeeds = append(p.InFeeds, ev.Type.InFeed())
	}
	rows, err := db.New(tx).EventInsertMany(ctx, p)
	if err != nil {
		return Internal(err)
	}
	if a.Outbox == nil {
		return nil
	}
	// In the order recorded: seq follows the insert.
	slices.SortFunc(rows, func(x, y db.Event) int { return cmp.Compare(x.Seq, y.Seq) })
	out := make([]Event, len(rows))
	for i, r := range rows {
		out[i] = EventFromRow(r)
	}
	if many, ok := a.Outbox.(EventsOutbox); ok {
		return many.EnqueueMany(ctx, tx, out)
	}
	for _, ev := range out {
		if err := a.Outbox.Enqueue(ctx, tx, ev); err != nil {
			return err
		}
	}
	return nil
}

// EventFromRow maps a stored event: what RecordEvent hands the Outbox and
// what a webhook delivery carries.
func EventFromRow(r db.Event) Event {
	return Event{
		ID: r.ID, Seq: r.Seq, Type: EventType(r.Type), Mode: Mode(r.Mode), CampaignID: r.CampaignID,
		SendID: r.SendID, RecipientID: r.RecipientID, Data: json.RawMessage(r.Data), CreatedAt: r.CreatedAt,
		WorkspaceID: r.WorkspaceID, Xid: r.Xid,
	}
}
