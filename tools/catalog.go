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
	Query                string `json:"query,omitempty" jsonschema:"the user's words; no X, without X and X-free exclude" schema:"maxLength=500"`
	UseCase              string `json:"useCase,omitempty" jsonschema:"why the gift is sent; ranks, excludes nothing" schema:"maxLength=500"`
	BudgetCents          int64  `json:"budgetCents,omitempty" jsonschema:"the most ONE gift may cost with shipping, in USD cents" schema:"minimum=1,maximum=100000000"`
	RecipientCount       int    `json:"recipientCount,omitempty" jsonschema:"how many people, for the campaign estimate" schema:"minimum=1,maximum=2000"`
	Limit                int    `json:"limit,omitempty" jsonschema:"how many gifts" schema:"minimum=1,maximum=100,default=10"`
	ExcludeFood          bool   `json:"excludeFood,omitempty" jsonschema:"no food gifts"`
	ExcludePortrait      bool   `json:"excludePortrait,omitempty" jsonschema:"no gifts needing a portrait"`
	ExcludeArtwork       bool   `json:"excludeArtwork,omitempty" jsonschema:"no gifts needing artwork"`
	ExcludeAlcohol       bool   `json:"excludeAlcohol,omitempty" jsonschema:"no alcohol gifts"`
	RequireKnownShipping bool   `json:"requireKnownShipping,omitempty" jsonschema:"only gifts with priced delivery: set it when the budget must hold or auto-approve is used"`
}

// GetGiftInput is get_gift's input.
type GetGiftInput struct {
	ProductID string `json:"productId" jsonschema:"from search_gifts or browse_gifts; never invented" schema:"minLength=1,maxLength=200"`
}

// BrowseGiftsInput is browse_gifts' input.
type BrowseGiftsInput struct {
	IncludeRetired bool                 `json:"includeRetired,omitempty" jsonschema:"retired gifts too (never to choose)"`
	Detail         catalog.BrowseDetail `json:"detail,omitempty" jsonschema:"compact: the fields needed to choose; full: every field" schema:"enum=compact|full,default=compact"`
	Limit          int                  `json:"limit,omitempty" jsonschema:"page size" schema:"minimum=1,maximum=100,default=20"`
	Cursor         string               `json:"cursor,omitempty" jsonschema:"the previous page's nextCursor" schema:"maxLength=500"`
}

// GetCatalogInput is get_catalog's input: nothing.
type GetCatalogInput struct{}

const selectionRules = "Choose only a gift not retired, available, without priceQuoteRequired and priced above 0 " +
	"(prefer shippingQuoteRequired false when the budget must hold). Never invent a product ID."

const descWorkflowGuide = "Read first, once per session: your mode and what you may do, the playbook and batch steps, what approval reasons " +
	"and recipient needs mean, the limits, and how to recover from each error code. Changes nothing."

const descSearchGifts = "Find gifts for the user's goal, to choose a productId: their words in query, the occasion in useCase, the most one gift may cost " +
	"in budgetCents, exclude flags for what they rule out. Returns gifts that can be chosen now, best first, with estimates (without delivery " +
	"when deliveryIncluded is false: never call them delivered totals). Let the user choose, then follow nextStep. Never invent a product ID."

const descGetGift = "Read one gift in full before create_campaign: lettering (personalizationText; set customization.displayText), the recipientDetails " +
	"each person needs, requiresArtwork, requiresPortrait, fulfillmentKind (alcohol: adultRecipientConfirmed), quoteDetails.inputs. " + selectionRules

const descBrowseGifts = "List the whole catalog page by page when the user wants everything or search_gifts found nothing. " +
	"It lists gifts that cannot be chosen too: " + selectionRules

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
