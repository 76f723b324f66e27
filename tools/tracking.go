package tools

import (
	"context"
	"net/http"
	"time"

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

const descListTrackingEvents = "Poll the event feed: what happened to gifts, oldest first, test and live together (check mode); never an address, email, note or link. " +
	"Store nextCursor after every poll, even an empty one, and pass it as cursor next time; while hasMore is true poll again at once, otherwise later. " +
	"Deduplicate on id. Changes nothing."

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

// GetTrackingInput is get_tracking's input: the tracking filters and the page.
type GetTrackingInput struct {
	CampaignID string `json:"campaignId,omitempty" jsonschema:"only this campaign's gifts" schema:"maxLength=200"`
	ExternalID string `json:"externalId,omitempty" jsonschema:"only gifts whose attribution.externalId is this" schema:"maxLength=200"`
	Status     string `json:"status,omitempty" jsonschema:"only gifts in this status" schema:"enum=awaiting_address|ready|in_production|shipped|delivered|declined|expired|cancelled"`
	SendID     string `json:"sendId,omitempty" jsonschema:"only this gift" schema:"maxLength=200"`
	Limit      int    `json:"limit,omitempty" jsonschema:"page size" schema:"minimum=1,maximum=100,default=50"`
	Cursor     string `json:"cursor,omitempty" jsonschema:"the previous page's nextCursor, with the same filters" schema:"maxLength=500"`
}

// CampaignTrackingInput is GET /campaigns/{id}/tracking's input: one
// campaign, the other filters and the page.
type CampaignTrackingInput struct {
	ID         string `json:"id" jsonschema:"the campaign ID" schema:"minLength=1,maxLength=200"`
	ExternalID string `json:"externalId,omitempty" jsonschema:"only gifts whose attribution.externalId is this" schema:"maxLength=200"`
	Status     string `json:"status,omitempty" jsonschema:"only gifts in this status" schema:"enum=awaiting_address|ready|in_production|shipped|delivered|declined|expired|cancelled"`
	Limit      int    `json:"limit,omitempty" jsonschema:"page size" schema:"minimum=1,maximum=100,default=50"`
	Cursor     string `json:"cursor,omitempty" jsonschema:"the previous page's nextCursor, with the same filters" schema:"maxLength=500"`
}

// RecordOutcomeInput is record_outcome's input.
type RecordOutcomeInput struct {
	ID              string     `json:"id" jsonschema:"the gift ID (send_...)" schema:"minLength=1,maxLength=200"`
	Outcome         string     `json:"outcome" jsonschema:"what the user reported" schema:"enum=none|replied|meeting_booked|meeting_held"`
	ExternalEventID string     `json:"externalEventId,omitempty" jsonschema:"your own ID of this report (a CRM activity ID); a retry with it and the same source records nothing new" schema:"maxLength=200"`
	Source          string     `json:"source,omitempty" jsonschema:"where the report comes from (hubspot, calendar, user)" schema:"maxLength=100"`
	OccurredAt      *time.Time `json:"occurredAt,omitempty" jsonschema:"when it happened (RFC 3339); default now; at most five minutes ahead" schema:"type=string,format=date-time"`
}

const descGetTracking = "Follow gifts after approval: status, outcome, orderState and, once shipped, carrier and tracking; never an address. " +
	"Filter by campaignId, externalId, status or sendId; page with nextCursor. For changes since your last look, poll list_tracking_events. Changes nothing."

const descGetSendTracking = "One gift's tracking item: status, outcome, orderState, mode, totalCents, attribution and, once shipped, carrier, trackingNumber and trackingUrl. " +
	"Another workspace's gift is NOT_FOUND. It changes nothing."

const descCampaignTracking = "One campaign's gifts as tracking items, newest first: status, outcome, orderState, carrier and tracking once shipped. " +
	"Filter by externalId or status; limit 1-100 (default 50); pass nextCursor as cursor until it is null. It changes nothing."

const descCampaignResults = "A campaign's results: sends, cancelled, delivered, replied, meetings, committed cost and cost per meeting (null without meetings). " +
	"Outcomes are what the team reported, never inferred; not revenue. Changes nothing."

const descRecordOutcome = "Record an outcome the user reported for a gift (none, replied, meeting_booked, meeting_held); never infer one from delivery or opens. " +
	"Send externalEventId so a retry records once. The gift's outcome becomes the latest that occurred: read it with get_tracking, totals with campaign_results."

// outcomeTools are tracking items, outcomes and results.
func outcomeTools(app *giftwell.App) []Tool {
	return []Tool{
		Define("get_tracking", descGetTracking, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in GetTrackingInput) (tracking.ItemPage, error) {
				return app.Tracking.Items(ctx, p, tracking.ItemsInput{
					ItemFilter: tracking.ItemFilter{CampaignID: in.CampaignID, ExternalID: in.ExternalID, Status: in.Status, SendID: in.SendID},
					Limit:      in.Limit, Cursor: in.Cursor,
				})
			},
			Title("Track gifts"), ChatGPT(), ReadOnly(), REST(http.MethodGet, "/tracking", http.StatusOK)),
		Define("get_send_tracking", descGetSendTracking, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in SendIDInput) (tracking.Item, error) {
				return app.Tracking.Item(ctx, p, in.ID)
			},
			Title("Track one gift"), RESTOnly(), ReadOnly(), REST(http.MethodGet, "/sends/{id}/tracking", http.StatusOK)),
		Define("list_campaign_tracking", descCampaignTracking, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in CampaignTrackingInput) (tracking.ItemPage, error) {
				return app.Tracking.CampaignItems(ctx, p, in.ID, tracking.ItemsInput{
					ItemFilter: tracking.ItemFilter{ExternalID: in.ExternalID, Status: in.Status},
					Limit:      in.Limit, Cursor: in.Cursor,
				})
			},
			Title("Track a campaign's gifts"), RESTOnly(), ReadOnly(), REST(http.MethodGet, "/campaigns/{id}/tracking", http.StatusOK)),
		Define("campaign_results", descCampaignResults, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in CampaignIDInput) (tracking.Results, error) {
				return app.Tracking.CampaignResults(ctx, p, in.ID)
			},
			Title("A campaign's results"), ChatGPT(), ReadOnly(), REST(http.MethodGet, "/campaigns/{id}/results", http.StatusOK)),
		Define("record_outcome", descRecordOutcome, ScopeDash, core.ActRecordOutcome,
			func(ctx context.Context, p core.Principal, in RecordOutcomeInput) (tracking.OutcomeReport, error) {
				return app.Tracking.RecordOutcome(ctx, p, tracking.OutcomeInput{
					SendID: in.ID, Outcome: tracking.Outcome(in.Outcome), ExternalEventID: in.ExternalEventID, Source: in.Source, OccurredAt: in.OccurredAt,
				})
			},
			Title("Record an outcome"), Idempotent(), REST(http.MethodPost, "/sends/{id}/outcomes", http.StatusOK)),
	}
}
