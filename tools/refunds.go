package tools

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/giftlink"
)

// RequestGiftRefundInput is request_gift_refund's input.
type RequestGiftRefundInput struct {
	ID     string `json:"id" jsonschema:"the gift ID (send_...)" schema:"minLength=1,maxLength=100"`
	Reason string `json:"reason" jsonschema:"why the gift should be refunded (1-500 characters)" schema:"minLength=1,maxLength=500"`
}

const descRequestGiftRefund = "Ask the service's staff to refund an unused gift whose link shows canRequestRefund: true (a signed-in owner or admin). " +
	"The request waits in state requested; requested and processing do not mean refunded. Returns the request."

const descListGiftRefunds = "A campaign's refund requests, newest first, with their state (requested, processing, refunded or rejected). Changes nothing."

// giftPage is the web app's page of the gift the arguments name, where a
// signed-in owner or admin asks for its refund.
func giftPage(app *giftwell.App) func(args json.RawMessage) string {
	return idPage(app, func(id string) string { return app.Config.SiteURL + "/gifts/" + id })
}

// refundTools are the gift refund routes: the request and the history.
func refundTools(app *giftwell.App) []Tool {
	return []Tool{
		Define("request_gift_refund", descRequestGiftRefund, ScopeSignedIn, core.ActPay,
			func(ctx context.Context, p core.Principal, in RequestGiftRefundInput) (giftlink.GiftRefund, error) {
				return app.GiftLinks.RequestRefund(ctx, p, in.ID, in.Reason)
			},
			Title("Request a gift's refund"), RESTOnly(), PersonURL(giftPage(app)), REST(http.MethodPost, "/sends/{id}/gift-link/refund", http.StatusOK)),
		Define("list_gift_refunds", descListGiftRefunds, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in CampaignIDInput) ([]giftlink.GiftRefund, error) {
				return app.GiftLinks.CampaignRefunds(ctx, p, in.ID)
			},
			Title("A campaign's refund history"), RESTOnly(), ReadOnly(), REST(http.MethodGet, "/campaigns/{id}/gift-refunds", http.StatusOK)),
	}
}
