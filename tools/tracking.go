package tools

import (
	"context"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/tracking"
)

// ListTrackingEventsInput is list_tracking_events' input: the tracking
// filters, one event type, and the page.
type ListTrackingEventsInput struct {
	CampaignID string         `json:"campaignId,omitempty" jsonschema:"only this campaign's events" schema:"maxLength=200"`
	ExternalID string         `json:"externalId,omitempty" jsonschema:"only events of gifts with this attribution.externalId" schema:"maxLength=200"`
	Status     string         `json:"status,omitempty" jsonschema:"only events of gifts whose current status is this" schema:"maxLength=200"`
	SendID     string         `json:"sendId,omitempty" jsonschema:"only this gift's events" schema:"maxLength=200"`
	Type       core.EventType `json:"type,omitempty" jsonschema:"one event type; omit for all" schema:"enum=send.created|send.gift_link_changed|send.address_confirmed|send.link_opened|send.status_changed|send.order_changed|send.outcome_reported|send.tracking_changed|send.auto_approved"`
	Limit      int            `json:"limit,omitempty" jsonschema:"page size" schema:"minimum=1,maximum=100,default=50"`
	Cursor     string         `json:"cursor,omitempty" jsonschema:"the nextCursor you stored, unchanged; omit only on the first poll" schema:"maxLength=200"`
}

const descListTrackingEvents = "Poll the workspace's event feed: what happened to gifts (send.created, send.auto_approved, ...), oldest first, " +
	"test and live together (check each item's mode). Items: id, type, mode, sendId, campaignId, createdAt and a small data object; never an address, email, note or link. " +
	"Optional filters: campaignId, externalId, status, sendId and one type. limit 1-100 (default 50). " +
	"Store nextCursor after every poll, even an empty one, and pass it as cursor next time; while hasMore is true poll again at once, otherwise later. " +
	"Deduplicate on id. It changes nothing."

// trackingTools are the tracking tools: the event feed.
func trackingTools(app *giftwell.App) []Tool {
	return []Tool{
		Define("list_tracking_events", descListTrackingEvents, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in ListTrackingEventsInput) (tracking.EventPage, error) {
				return app.Tracking.Events(ctx, p, tracking.EventsInput{
					EventFilter: tracking.EventFilter{CampaignID: in.CampaignID, ExternalID: in.ExternalID, Status: in.Status, SendID: in.SendID, Type: in.Type},
					Limit:       in.Limit, Cursor: in.Cursor,
				})
			},
			Title("Poll the event feed"), ReadOnly(), REST(http.MethodGet, "/events", http.StatusOK)),
	}
}
