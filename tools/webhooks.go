package tools

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/webhook"
)

// CreateWebhookInput is create_webhook's input.
type CreateWebhookInput struct {
	URL    string   `json:"url" jsonschema:"the public HTTPS URL deliveries are POSTed to" schema:"minLength=1,maxLength=2000"`
	Events []string `json:"events" jsonschema:"1-10 of: all, or event type names such as send.status_changed and playbook.person_waiting" schema:"minItems=1,maxItems=10,items.maxLength=100"`
}

// ListWebhooksInput is list_webhooks' input: none.
type ListWebhooksInput struct{}

// WebhookIDInput names one endpoint.
type WebhookIDInput struct {
	ID string `json:"id" jsonschema:"the endpoint (whk_...)" schema:"minLength=1,maxLength=100"`
}

// WebhookDeliveriesInput is the deliveries list's input.
type WebhookDeliveriesInput struct {
	ID     string `json:"id" jsonschema:"the endpoint (whk_...)" schema:"minLength=1,maxLength=100"`
	Source string `json:"source,omitempty" jsonschema:"gift (send.* events; default) or playbook (playbook.person_waiting)" schema:"enum=gift|playbook"`
	Limit  int    `json:"limit,omitempty" jsonschema:"page size" schema:"minimum=1,maximum=100,default=50"`
	Before string `json:"before,omitempty" jsonschema:"nextBefore of the previous page; omit for the newest" schema:"maxLength=20"`
}

// RetryWebhookDeliveryInput names the delivery to retry.
type RetryWebhookDeliveryInput struct {
	ID         string `json:"id" jsonschema:"the endpoint (whk_...)" schema:"minLength=1,maxLength=100"`
	DeliveryID string `json:"deliveryId" jsonschema:"the delivery (dlv_...)" schema:"minLength=1,maxLength=100"`
	Source     string `json:"source,omitempty" jsonschema:"gift (default) or playbook" schema:"enum=gift|playbook"`
}

const descCreateWebhook = "Add a webhook endpoint: Giftwell POSTs each new event of the chosen types to url, signed with the returned secret (shown only now). " +
	"Signed-in owners and admins only; keys get HUMAN_APPROVAL_REQUIRED with the webhooks page."

const descListWebhooks = "List the workspace's webhook endpoints (id, url, events, createdAt; never secrets). Owners and admins; read deliveries with GET /webhooks/{id}/deliveries. It changes nothing."

const descRemoveWebhook = "Remove a webhook endpoint: no more deliveries; those still waiting end as cancelled. Signed-in owners and admins only."

const descWebhookDeliveries = "An endpoint's deliveries, newest event first: id, event_seq, type, source, state (pending, retrying, delivered, dead, cancelled), attempts, " +
	"next_at (Unix ms), last_status, last_error. source gift (default) or playbook; page with before=nextBefore."

const descRetryWebhookDelivery = "Start a new cycle of up to 8 attempts, now, for a dead or retrying delivery. A delivered, cancelled or untried one is INVALID_REQUEST_STATE."

// webhookTools are the webhook endpoints and their deliveries.
func webhookTools(app *giftwell.App) []Tool {
	page := func(json.RawMessage) string { return app.Config.WebhooksURL() }
	return []Tool{
		Define("list_webhooks", descListWebhooks, ScopeDash, core.ActReadWebhooks,
			func(ctx context.Context, p core.Principal, _ ListWebhooksInput) ([]webhook.Endpoint, error) {
				return app.Webhooks.List(ctx, p)
			},
			Title("List webhook endpoints"), ReadOnly(), PersonURL(page), REST(http.MethodGet, "/webhooks", http.StatusOK)),
		Define("list_webhook_deliveries", descWebhookDeliveries, ScopeDash, core.ActReadWebhooks,
			func(ctx context.Context, p core.Principal, in WebhookDeliveriesInput) (webhook.DeliveryPage, error) {
				return app.Webhooks.Deliveries(ctx, p, in.ID, webhook.DeliveryQuery{Source: in.Source, Limit: in.Limit, Before: in.Before})
			},
			Title("List an endpoint's deliveries"), RESTOnly(), ReadOnly(), PersonURL(page), REST(http.MethodGet, "/webhooks/{id}/deliveries", http.StatusOK)),
		Define("retry_webhook_delivery", descRetryWebhookDelivery, ScopeDash, core.ActReadWebhooks,
			func(ctx context.Context, p core.Principal, in RetryWebhookDeliveryInput) (webhook.Delivery, error) {
				return app.Webhooks.Retry(ctx, p, in.ID, in.DeliveryID, in.Source)
			},
			Title("Retry a delivery"), RESTOnly(), OpenWorld(), PersonURL(page),
			REST(http.MethodPost, "/webhooks/{id}/deliveries/{deliveryId}/retry", http.StatusOK, QueryParams())),
	}
}

// webhookSignedInTools are the webhook tools only a signed-in owner or
// admin may use (the registry's last rows).
func webhookSignedInTools(app *giftwell.App) []Tool {
	page := func(json.RawMessage) string { return app.Config.WebhooksURL() }
	return []Tool{
		Define("create_webhook", descCreateWebhook, ScopeSignedIn, core.ActManageWebhooks,
			func(ctx context.Context, p core.Principal, in CreateWebhookInput) (webhook.CreatedEndpoint, error) {
				return app.Webhooks.Create(ctx, p, webhook.EndpointInput{URL: in.URL, Events: in.Events})
			},
			Title("Add a webhook endpoint"), OpenWorld(), PersonURL(page), REST(http.MethodPost, "/webhooks", http.StatusCreated)),
		Define("remove_webhook", descRemoveWebhook, ScopeSignedIn, core.ActManageWebhooks,
			func(ctx context.Context, p core.Principal, in WebhookIDInput) (webhook.Endpoint, error) {
				return app.Webhooks.Remove(ctx, p, in.ID)
			},
			Title("Remove a webhook endpoint"), Destructive(), Idempotent(), PersonURL(page), REST(http.MethodDelete, "/webhooks/{id}", http.StatusOK)),
	}
}
