package tools

import (
	"context"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/guide"
)

// GuideInput is get_workflow_guide's input: nothing.
type GuideInput struct{}

// SearchGiftsInput is search_gifts' input.
type SearchGiftsInput struct {
	Query                string `json:"query,omitempty" jsonschema:"what the user wants, in words, e.g. engraved desk gift or coffee; a gift must match at least one word" schema:"maxLength=500"`
	UseCase              string `json:"useCase,omitempty" jsonschema:"why the gift is sent, e.g. thank a customer after closed-won; ranks gifts but excludes none" schema:"maxLength=500"`
	BudgetCents          int64  `json:"budgetCents,omitempty" jsonschema:"the most ONE gift may cost, priceCents + shippingCents, in USD cents (not the campaign total)" schema:"minimum=1,maximum=100000000"`
	RecipientCount       int    `json:"recipientCount,omitempty" jsonschema:"how many people the campaign is for; campaignEstimateCents = recipientCount x price (default 1)" schema:"minimum=1,maximum=2000"`
	Limit                int    `json:"limit,omitempty" jsonschema:"how many gifts to return" schema:"minimum=1,maximum=100,default=10"`
	ExcludeFood          bool   `json:"excludeFood,omitempty" jsonschema:"leave out food gifts (fulfillmentKind food)"`
	ExcludePortrait      bool   `json:"excludePortrait,omitempty" jsonschema:"leave out gifts that need a portrait photo of each person"`
	ExcludeArtwork       bool   `json:"excludeArtwork,omitempty" jsonschema:"leave out gifts that need artwork such as a logo"`
	ExcludeAlcohol       bool   `json:"excludeAlcohol,omitempty" jsonschema:"leave out alcohol gifts (fulfillmentKind alcohol)"`
	RequireKnownShipping bool   `json:"requireKnownShipping,omitempty" jsonschema:"leave out gifts whose delivery is not priced yet; set it when the budget must hold exactly or auto-approve will be used"`
}

// GetGiftInput is get_gift's input.
type GetGiftInput struct {
	ProductID string `json:"productId" jsonschema:"a product ID from search_gifts or browse_gifts; never invent one" schema:"minLength=1,maxLength=200"`
}

// BrowseGiftsInput is browse_gifts' input.
type BrowseGiftsInput struct {
	IncludeRetired bool                 `json:"includeRetired,omitempty" jsonschema:"list retired gifts too; they are never chosen for a new campaign"`
	Detail         catalog.BrowseDetail `json:"detail,omitempty" jsonschema:"compact (default): the fields needed to choose; full: every field" schema:"enum=compact|full,default=compact"`
	Limit          int                  `json:"limit,omitempty" jsonschema:"page size" schema:"minimum=1,maximum=100,default=20"`
	Cursor         string               `json:"cursor,omitempty" jsonschema:"nextCursor from the previous page, unchanged; omit for the first page" schema:"maxLength=500"`
}

// GetCatalogInput is get_catalog's input: nothing.
type GetCatalogInput struct{}

const selectionRules = "Choose only a gift that is not retired, has available true, no priceQuoteRequired and a priceCents above 0; " +
	"prefer shippingQuoteRequired false when the budget must hold exactly or auto-approve is used (an absent flag is false). Never invent a product ID."

const descWorkflowGuide = "Read this first, once per session: the workspace mode (test or live), what your credentials may do (agents prepare and track; " +
	"signed-in owners and admins approve, pay and top up), the playbook and batch steps, what every approval reason means, " +
	"what each recipient needs, the limits, and how to recover from every error code. Changes nothing."

const descSearchGifts = "Find gifts for the user's goal: use it first, to choose a productId. Put the user's words in query, the occasion in useCase, " +
	"the most one gift may cost in budgetCents and the head count in recipientCount; set the exclude flags for what the user rules out. " +
	"Returns only gifts that can be chosen now (live mode: verified ones), best match first, with estimates per gift and for the campaign; " +
	"when deliveryIncluded is false they exclude delivery: never present them as delivered totals. " +
	"Show the user a few with prices, let them choose, then follow nextStep (usually create_campaign, as a playbook). Never invent a product ID."

const descGetGift = "Read one gift in full before create_campaign: lettering limits (personalizationText; lettering goes in customization.displayText), " +
	"the recipientDetails each person needs (their details.<key>), requiresArtwork, requiresPortrait, fulfillmentKind (alcohol needs adultRecipientConfirmed), " +
	"quoteDetails.inputs (never invent inputs) and a suggested message. An unknown productId is NOT_FOUND: search again. " + selectionRules

const descBrowseGifts = "List the whole catalog page by page when the user wants to see everything or search_gifts found nothing; " +
	"pass nextCursor as cursor, with the same includeRetired, until it is null. Unlike search_gifts it lists gifts that cannot be chosen: " +
	selectionRules

const descGetCatalog = "Every product of the catalog, retired ones included (retired: true; never choose one for a new campaign). " +
	"Public: no credentials, not rate limited. It proves nothing about a key; to choose a gift, use search_gifts (GET /catalog/search)."

// catalogTools are the catalog and guide tools, in the spec's order, then
// the public catalog, which only REST serves.
func catalogTools(app *giftwell.App) []Tool {
	return []Tool{
		Define("get_workflow_guide", descWorkflowGuide, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, _ GuideInput) (guide.WorkflowGuide, error) {
				return app.Guide.WorkflowGuide(ctx, p)
			},
			Title("Read the workflow guide"), ChatGPT(), ReadOnly(), REST(http.MethodGet, "/workflow", http.StatusOK)),
		Define("search_gifts", descSearchGifts, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in SearchGiftsInput) (catalog.SearchResult, error) {
				return app.Catalog.Search(ctx, catalog.SearchParams{
					Query: in.Query, UseCase: in.UseCase, BudgetCents: absentIfZero(in.BudgetCents),
					RecipientCount: absentIfZero(in.RecipientCount), Limit: absentIfZero(in.Limit),
					ExcludeFood: in.ExcludeFood, ExcludePortrait: in.ExcludePortrait,
					ExcludeArtwork: in.ExcludeArtwork, ExcludeAlcohol: in.ExcludeAlcohol,
					RequireKnownShipping: in.RequireKnownShipping, Mode: p.Mode,
				})
			},
			Title("Search gifts"), ChatGPT(), ReadOnly(), REST(http.MethodGet, "/catalog/search", http.StatusOK)),
		Define("get_gift", descGetGift, ScopeRead, core.ActRead,
			func(ctx context.Context, _ core.Principal, in GetGiftInput) (catalog.Product, error) {
				return app.Catalog.Get(ctx, in.ProductID)
			},
			Title("Read a gift"), ChatGPT(), ReadOnly(), REST(http.MethodGet, "/catalog/{productId}", http.StatusOK)),
		Define("browse_gifts", descBrowseGifts, ScopeRead, core.ActRead,
			func(ctx context.Context, _ core.Principal, in BrowseGiftsInput) (catalog.BrowseResult, error) {
				return app.Catalog.Browse(ctx, catalog.BrowseParams{
					IncludeRetired: in.IncludeRetired, Detail: in.Detail, Limit: absentIfZero(in.Limit), Cursor: in.Cursor,
				})
			},
			Title("Browse the catalog"), ChatGPT(), ReadOnly()),
		Define("get_catalog", descGetCatalog, ScopeRead, core.ActRead,
			func(ctx context.Context, _ core.Principal, _ GetCatalogInput) ([]catalog.Product, error) {
				products, err := app.Catalog.PublicCatalog(ctx)
				if err == nil && products == nil {
					products = []catalog.Product{}
				}
				return products, err
			},
			Title("The public gift catalog"), RESTOnly(), ReadOnly(), REST(http.MethodGet, "/catalog", http.StatusOK, Public())),
	}
}

// absentIfZero turns an omitted number (zero; the schema refuses an explicit
// zero) into core's "absent".
func absentIfZero[T int | int64](v T) *T {
	if v == 0 {
		return nil
	}
	return &v
}
