package tracking

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// Bounds of list_tracking_events' pages.
const (
	// DefaultEventLimit is the page size when limit is absent.
	DefaultEventLimit = 50
	// MaxEventLimit is the largest page.
	MaxEventLimit = core.MaxPageLimit
	// MaxFilterLength is the longest filter value, in characters (the
	// spec's bound on IDs and attribution fields).
	MaxFilterLength = 200
)

// FeedTypes are the event types the feed carries, in the spec's order:
// every type but playbook.person_waiting, which webhooks alone deliver.
var FeedTypes = []core.EventType{
	core.EventSendCreated, core.EventSendGiftLinkChanged, core.EventSendAddressConfirmed, core.EventSendLinkOpened,
	core.EventSendStatusChanged, core.EventSendOrderChanged, core.EventSendOutcomeReported, core.EventSendTrackingChanged,
	core.EventSendAutoApproved,
}

// EventFilter narrows the feed: the tracking filters and one event type.
// Empty fields do not narrow.
type EventFilter struct {
	// CampaignID keeps the events of one campaign.
	CampaignID string
	// ExternalID keeps the events of gifts whose attribution.externalId it is.
	ExternalID string
	// Status keeps the events of gifts whose current status it is.
	Status string
	// SendID keeps the events of one gift.
	SendID string
	// Type keeps the events of one type (one of FeedTypes).
	Type core.EventType
}

// EventsInput is one poll of the feed.
type EventsInput struct {
	EventFilter
	// Limit is the page size, 1-MaxEventLimit; 0 means DefaultEventLimit.
	Limit int
	// Cursor is the nextCursor of the previous poll, or empty to start
	// from the oldest event.
	Cursor string
}

// EventItem is one event of the feed. It never holds an address, email,
// note or gift link.
type EventItem struct {
	ID         string         `json:"id" jsonschema:"the event ID (evt_...); deduplicate on it"`
	Type       core.EventType `json:"type" jsonschema:"what happened" schema:"enum=send.created|send.gift_link_changed|send.address_confirmed|send.link_opened|send.status_changed|send.order_changed|send.outcome_reported|send.tracking_changed|send.auto_approved"`
	Mode       core.Mode      `json:"mode" jsonschema:"test or live, as the gift was created; both share the feed" schema:"enum=test|live"`
	SendID     string         `json:"sendId,omitempty" jsonschema:"the gift; absent on a playbook.person_waiting delivery, which is about a person without one"`
	CampaignID string         `json:"campaignId" jsonschema:"the gift's campaign"`
	CreatedAt  time.Time      `json:"createdAt" jsonschema:"when it was recorded"`
	Data       map[string]any `json:"data" jsonschema:"the type's own fields (IDs, status, amounts, attribution); a field with no value is left out"`
	// Cursor is the feed's position right after this event; a
	// playbook.person_waiting webhook delivery has none.
	Cursor string `json:"cursor,omitempty" jsonschema:"the feed position after this event: pass it as cursor to continue after it"`
}

// EventPage is one poll's answer.
type EventPage struct {
	Items []EventItem `json:"items" jsonschema:"the events after cursor, in feed order (oldest first)"`
	// NextCursor is never empty: after an empty poll it is the current end.
	NextCursor string `json:"nextCursor" jsonschema:"store it after every poll, even an empty one, and pass it as cursor next time"`
	HasMore    bool   `json:"hasMore" jsonschema:"true when more events are ready now: poll again at once"`
}

// Events returns the events of p's workspace after in.Cursor, in feed
// order: append-only and totally ordered by (transaction ID, seq), test and
// live together (each item says its mode), playbook.person_waiting never
// (webhooks only). A poll returns only events below its horizon, the xmin
// of the database's snapshot: every transaction that could still write an
// event at or before a returned position has ended, so an event that
// commits late is never skipped. The filters narrow what is returned, not
// the position: nextCursor moves over the events they leave out.
//
// When more than in.Limit events match below the horizon, the page ends at
// its last event and hasMore is true; otherwise nextCursor is the horizon
// itself (never before in.Cursor), so an empty poll also returns a cursor
// to store. It returns VALIDATION_ERROR naming limit, type, cursor (not a
// cursor this workspace was given) or a filter longer than
// MaxFilterLength; NOT_FOUND naming campaignId or sendId outside the
// workspace; the codes of Authorize (ActRead); or INTERNAL_ERROR.
func (a *Service) Events(ctx context.Context, p core.Principal, in EventsInput) (EventPage, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return EventPage{}, err
	}
	limit, err := in.validate()
	if err != nil {
		return EventPage{}, err
	}
	var after position
	if in.Cursor != "" {
		if after, err = decodeCursor(p.WorkspaceID, in.Cursor); err != nil {
			return EventPage{}, err
		}
	}
	q := db.New(a.DB)
	if err := filterIDsExist(ctx, q, p.WorkspaceID, in.EventFilter); err != nil {
		return EventPage{}, err
	}
	// The horizon comes first: a transaction below it ended before this
	// query's snapshot was taken, so its events are visible to the list.
	horizon, err := q.EventFeedHorizon(ctx)
	if err != nil {
		return EventPage{}, core.Internal(err)
	}
	rows, err := q.EventFeedList(ctx, db.EventFeedListParams{
		WorkspaceID: p.WorkspaceID, AfterXid: after.xid, AfterSeq: after.seq, Horizon: horizon,
		Type: string(in.Type), CampaignID: in.CampaignID, SendID: in.SendID, Status: in.Status, ExternalID: in.ExternalID,
		MaxRows: int32(limit + 1),
	})
	if err != nil {
		return EventPage{}, core.Internal(err)
	}
	page := EventPage{Items: make([]EventItem, 0, min(len(rows), limit))}
	next := position{xid: horizon}
	if len(rows) > limit {
		rows = rows[:limit]
		last := rows[limit-1]
		next, page.HasMore = position{xid: last.Xid, seq: last.Seq}, true
	}
	if !next.after(after) {
		next = after
	}
	for _, r := range rows {
		item, err := itemFromRow(p.WorkspaceID, r)
		if err != nil {
			return EventPage{}, err
		}
		page.Items = append(page.Items, item)
	}
	page.NextCursor = encodeCursor(p.WorkspaceID, next)
	return page, nil
}

// validate checks the poll's input and returns its page size.
func (in EventsInput) validate() (int, error) {
	limit := in.Limit
	switch {
	case limit == 0:
		limit = DefaultEventLimit
	case limit < 1 || limit > MaxEventLimit:
		return 0, core.Invalid("limit", "must be between 1 and %d", MaxEventLimit)
	}
	if in.Type != "" && !slices.Contains(FeedTypes, in.Type) {
		if in.Type == core.EventPlaybookPersonWaiting {
			return 0, core.Invalid("type", "playbook.person_waiting is delivered by webhooks only, never in the feed")
		}
		names := make([]string, len(FeedTypes))
		for i, t := range FeedTypes {
			names[i] = string(t)
		}
		return 0, core.Invalid("type", "must be one of %s", strings.Join(names, ", "))
	}
	for _, f := range []struct{ field, value string }{
		{"campaignId", in.CampaignID}, {"externalId", in.ExternalID}, {"status", in.Status}, {"sendId", in.SendID},
	} {
		if utf8.RuneCountInString(f.value) > MaxFilterLength {
			return 0, core.Invalid(f.field, "must be at most %d characters", MaxFilterLength)
		}
	}
	return limit, nil
}

// filterIDsExist returns NOT_FOUND when the filter names a campaign or a
// gift outside the workspace.
func filterIDsExist(ctx context.Context, q *db.Queries, workspaceID string, f EventFilter) error {
	if f.CampaignID != "" {
		if _, err := q.CampaignGet(ctx, db.CampaignGetParams{WorkspaceID: workspaceID, ID: f.CampaignID}); core.IsNoRows(err) {
			return core.FieldError(core.CodeNotFound, "campaignId", "no campaign %s in this workspace", core.Clip(f.CampaignID, 60))
		} else if err != nil {
			return core.Internal(err)
		}
	}
	if f.SendID != "" {
		if _, err := q.SendGet(ctx, db.SendGetParams{WorkspaceID: workspaceID, ID: f.SendID}); core.IsNoRows(err) {
			return core.FieldError(core.CodeNotFound, "sendId", "no gift %s in this workspace", core.Clip(f.SendID, 60))
		} else if err != nil {
			return core.Internal(err)
		}
	}
	return nil
}

// itemFromRow maps a stored feed event. Numbers in data keep their exact
// digits.
func itemFromRow(workspaceID string, r db.EventFeedListRow) (EventItem, error) {
	data := map[string]any{}
	dec := json.NewDecoder(bytes.NewReader(r.Data))
	dec.UseNumber()
	if err := dec.Decode(&data); err != nil {
		return EventItem{}, core.Internal(err)
	}
	// A field with no value is left out, never "" (events recorded before
	// their writers left such fields out carry them).
	for k, v := range data {
		if v == "" {
			delete(data, k)
		}
	}
	return EventItem{
		ID: r.ID, Type: core.EventType(r.Type), Mode: core.Mode(r.Mode), SendID: r.SendID, CampaignID: r.CampaignID,
		CreatedAt: r.CreatedAt.UTC(), Data: data, Cursor: encodeCursor(workspaceID, position{xid: r.Xid, seq: r.Seq}),
	}, nil
}

// ItemOf is ev as the feed returns it: a webhook delivery's body. An event
// outside the feed (playbook.person_waiting) has no cursor.
func ItemOf(ev core.Event) (EventItem, error) {
	item, err := itemFromRow(ev.WorkspaceID, db.EventFeedListRow{
		ID: ev.ID, Xid: ev.Xid, Seq: ev.Seq, Type: string(ev.Type), Mode: string(ev.Mode), CampaignID: ev.CampaignID,
		SendID: ev.SendID, Data: ev.Data, CreatedAt: ev.CreatedAt,
	})
	if !ev.Type.InFeed() {
		item.Cursor = ""
	}
	return item, err
}
