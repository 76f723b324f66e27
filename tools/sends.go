package tools

import (
	"context"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
)

// ListSendsInput is list_sends' input: the filters and the page.
type ListSendsInput struct {
	CampaignID string `json:"campaignId,omitempty" jsonschema:"only this campaign's gifts" schema:"maxLength=100"`
	Status     string `json:"status,omitempty" jsonschema:"only gifts in this status" schema:"enum=awaiting_address|ready|in_production|shipped|delivered|declined|expired|cancelled"`
	Mode       string `json:"mode,omitempty" jsonschema:"only test or only live gifts; omit for both" schema:"enum=test|live"`
	ExternalID string `json:"externalId,omitempty" jsonschema:"only gifts whose attribution.externalId is this" schema:"maxLength=200"`
	Limit      int    `json:"limit,omitempty" jsonschema:"page size" schema:"minimum=1,maximum=100,default=50"`
	Cursor     string `json:"cursor,omitempty" jsonschema:"the previous page's nextCursor, with the same filters" schema:"maxLength=500"`
}

// SendIDInput names one gift.
type SendIDInput struct {
	ID string `json:"id" jsonschema:"the gift ID (send_...; sendId, giftId and gift_id are the same ID)" schema:"minLength=1,maxLength=100"`
}

const descListSends = "List the workspace's gifts, newest first, with status, mode, totalCents, attribution and tracking once shipped. " +
	"Filter by campaignId, status, mode or externalId; page with nextCursor until it is null. Read one with get_send. Changes nothing."

const descGetSend = "Read one gift by sendId: status, orderState, mode, totalCents, attribution, the recipient as when it was created, and tracking once shipped. Changes nothing."

// sendTools are the gift record tools.
func sendTools(app *giftwell.App) []Tool {
	return []Tool{
		Define("list_sends", descListSends, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in ListSendsInput) (gift.GiftPage, error) {
				return app.Gifts.List(ctx, p, gift.GiftFilter{
					CampaignID: in.CampaignID, Status: gift.SendStatus(in.Status), Mode: core.Mode(in.Mode),
					ExternalID: in.ExternalID, Limit: in.Limit, Cursor: in.Cursor,
				})
			},
			Title("List gifts"), ReadOnly(), REST(http.MethodGet, "/sends", http.StatusOK)),
		Define("get_send", descGetSend, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in SendIDInput) (gift.Gift, error) {
				return app.Gifts.Get(ctx, p, in.ID)
			},
			Title("Read a gift"), ReadOnly(), REST(http.MethodGet, "/sends/{id}", http.StatusOK)),
	}
}
