package tools

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/billing"
)

// GetBillingConfigInput is get_billing_config's input: nothing.
type GetBillingConfigInput struct{}

// CheckoutIDInput names one checkout.
type CheckoutIDInput struct {
	CheckoutID string `json:"checkoutId" jsonschema:"the checkout (chk_...)" schema:"minLength=1,maxLength=100"`
}

// CheckoutItemsInput names the checkout whose items are listed.
type CheckoutItemsInput struct {
	ID string `json:"id" jsonschema:"the checkout (chk_...)" schema:"minLength=1,maxLength=100"`
}

// ListInvoicesInput is list_invoices' input.
type ListInvoicesInput struct {
	CampaignID string `json:"campaignId,omitempty" jsonschema:"only this campaign's checkouts" schema:"maxLength=100"`
	Limit      *int   `json:"limit,omitempty" jsonschema:"how many checkouts, newest first" schema:"minimum=1,maximum=100,default=50"`
	Before     string `json:"before,omitempty" jsonschema:"only checkouts created before this time (RFC 3339): the createdAt of the last one read, for the next page" schema:"maxLength=40,format=date-time"`
}

// CreateCampaignCheckoutInput is create_campaign_checkout's input.
type CreateCampaignCheckoutInput struct {
	ID                    string `json:"id" jsonschema:"the batch or single campaign (cmp_...)" schema:"minLength=1,maxLength=100"`
	ExpectedPolicyVersion int64  `json:"expectedPolicyVersion" jsonschema:"the policyVersion the person reviewed (preview_campaign shows it)" schema:"minimum=1"`
	IdempotencyKey        string `json:"idempotencyKey" jsonschema:"8-150 characters; the same key and campaign version return the same checkout" schema:"minLength=8,maxLength=150"`
}

// LaunchCampaignInput is launch_campaign's input.
type LaunchCampaignInput struct {
	ID     string `json:"id" jsonschema:"the paid campaign (cmp_...)" schema:"minLength=1,maxLength=100"`
	Cursor int    `json:"cursor,omitempty" jsonschema:"0 first, then the nextCursor of the previous call" schema:"minimum=0,default=0"`
}

const descGetBillingConfig = "How the service takes card payments: {enabled, mode (sandbox, live or disabled), canPay}; canPay is false for keys, which never pay. Changes nothing."

const descReconcileCampaignCheckout = "Ask the payment processor again about a checkout and return it: use it when a payment's result is unclear (a return page proves nothing). Owners and admins."

const descListInvoices = "A workspace's campaign checkouts, newest first, with state, amountCents and invoiceUrl/invoicePdf once paid. " +
	"Filter by campaignId; limit 1-100 (default 50); before=createdAt of the last one for more. Owners and admins."

const descCheckoutItems = "A checkout's paid positions: the person, amountCents, the gift's sendId and status once launched, and whether it can still be refunded."

const descCreateCampaignCheckout = "Open the card checkout of a batch or single campaign at the reviewed policyVersion: everyone without a gift, at the gift's price. " +
	"Returns the checkout with url, the payment page the signed-in owner or admin pays; then launch_campaign prepares the gifts. Playbooks are BALANCE_FUNDED."

const descCancelCampaignCheckout = "Cancel an unpaid checkout: its payment page closes and the campaign can be edited again. A paid checkout is INVALID_REQUEST_STATE."

const descLaunchCampaign = "Prepare up to three paid positions of a paid campaign per call into gifts (fundedBy checkout, with gift links where recipients confirm addresses). " +
	"Start at cursor 0 and call again with nextCursor until it is null; the same cursor never makes a second gift."

// billingPage is the url handed to a person for billing: the billing page.
func billingPage(app *giftwell.App) func(json.RawMessage) string {
	return func(json.RawMessage) string { return app.Billing.BillingURL() }
}

// billingTools are the billing reads and reconcile that keys of owners and
// admins may use.
func billingTools(app *giftwell.App) []Tool {
	page := billingPage(app)
	return []Tool{
		Define("get_billing_config", descGetBillingConfig, ScopeDash, core.ActReadWorkspaceDetails,
			func(ctx context.Context, p core.Principal, _ GetBillingConfigInput) (billing.BillingConfig, error) {
				return app.Billing.BillingConfig(ctx, p)
			},
			Title("Read the billing config"), ReadOnly(), REST(http.MethodGet, "/billing/config", http.StatusOK)),
		Define("reconcile_campaign_checkout", descReconcileCampaignCheckout, ScopeDash, core.ActReadBilling,
			func(ctx context.Context, p core.Principal, in CheckoutIDInput) (billing.Checkout, error) {
				return app.Billing.ReconcileCampaignCheckout(ctx, p, in.CheckoutID)
			},
			Title("Reconcile a checkout"), Idempotent(), OpenWorld(), PersonURL(page),
			REST(http.MethodPost, "/billing/checkouts/{checkoutId}/reconcile", http.StatusOK)),
		Define("list_invoices", descListInvoices, ScopeDash, core.ActReadBilling,
			func(ctx context.Context, p core.Principal, in ListInvoicesInput) ([]billing.Checkout, error) {
				f := billing.InvoiceFilter{CampaignID: in.CampaignID, Limit: billing.DefaultInvoiceLimit}
				if in.Limit != nil {
					f.Limit = *in.Limit
				}
				if in.Before != "" {
					t, err := time.Parse(time.RFC3339Nano, in.Before)
					if err != nil {
						return nil, core.Invalid("before", "must be a time in RFC 3339, such as the createdAt of a checkout")
					}
					f.Before = t
				}
				return app.Billing.ListInvoices(ctx, p, f)
			},
			Title("List checkouts and invoices"), ReadOnly(), PersonURL(page), REST(http.MethodGet, "/billing/checkouts", http.StatusOK)),
		Define("list_checkout_items", descCheckoutItems, ScopeDash, core.ActReadBilling,
			func(ctx context.Context, p core.Principal, in CheckoutItemsInput) ([]billing.CheckoutItem, error) {
				return app.Billing.CheckoutItems(ctx, p, in.ID)
			},
			Title("A checkout's paid items"), RESTOnly(), ReadOnly(), PersonURL(page), REST(http.MethodGet, "/billing/checkouts/{id}/items", http.StatusOK)),
	}
}

// billingSignedInTools are checkout and launch, which only a signed-in
// person does.
func billingSignedInTools(app *giftwell.App) []Tool {
	page, review := billingPage(app), reviewPage(app)
	return []Tool{
		Define("create_campaign_checkout", descCreateCampaignCheckout, ScopeSignedIn, core.ActPay,
			func(ctx context.Context, p core.Principal, in CreateCampaignCheckoutInput) (billing.Checkout, error) {
				return app.Billing.CreateCampaignCheckout(ctx, p, in.ID, billing.CheckoutParams{ExpectedPolicyVersion: in.ExpectedPolicyVersion, IdempotencyKey: in.IdempotencyKey})
			},
			Title("Open a campaign's checkout"), Idempotent(), OpenWorld(), PersonURL(review), REST(http.MethodPost, "/campaigns/{id}/checkout", http.StatusOK)),
		Define("cancel_campaign_checkout", descCancelCampaignCheckout, ScopeSignedIn, core.ActPay,
			func(ctx context.Context, p core.Principal, in CheckoutIDInput) (billing.Checkout, error) {
				return app.Billing.CancelCampaignCheckout(ctx, p, in.CheckoutID)
			},
			Title("Cancel an unpaid checkout"), Idempotent(), OpenWorld(), PersonURL(page), REST(http.MethodPost, "/billing/checkouts/{checkoutId}/cancel", http.StatusOK)),
		Define("launch_campaign", descLaunchCampaign, ScopeSignedIn, core.ActActivate,
			func(ctx context.Context, p core.Principal, in LaunchCampaignInput) (billing.LaunchResult, error) {
				return app.Billing.LaunchCampaign(ctx, p, in.ID, in.Cursor)
			},
			Title("Launch a paid campaign"), Idempotent(), PersonURL(review), REST(http.MethodPost, "/campaigns/{id}/launch", http.StatusOK, QueryParams())),
	}
}
