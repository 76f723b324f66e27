package resources

import (
	"context"
	"fmt"
	"strings"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
)

// catalogSummary is giftwell://catalog/summary: the gifts a new campaign
// can choose now, with prices and flags, and the selection rules.
func catalogSummary(app *giftwell.App) Resource {
	return Resource{
		URI:   CatalogSummaryURI,
		Name:  "catalog-summary",
		Title: "Giftwell catalog summary",
		Description: "The gifts a new campaign can choose right now (current, available and priced), as a markdown " +
			"table with price per gift and flags, plus the catalog selection rules. Use search_gifts or get_gift " +
			"for full details.",
		MIMEType: MIMEMarkdown,
		read: func(ctx context.Context, _ core.Principal) (string, error) {
			products, err := app.Catalog.Products(ctx)
			if err != nil {
				return "", err
			}
			return renderCatalogSummary(products), nil
		},
	}
}

// selectionRules is the spec's catalog selection rules (§12), in order.
const selectionRules = `## Selection rules

Applied in this order:

1. ` + "`retired: false`" + `. A retired gift can still show ` + "`available: true`" + `; never choose it.
2. ` + "`available`" + ` not false and no ` + "`priceQuoteRequired`" + `.
3. Skip any gift with ` + "`priceCents: 0`" + ` (an unpriced placeholder).
4. Prefer ` + "`shippingQuoteRequired: false`" + ` when the budget must hold exactly or when auto-approve is used.

An absent flag (` + "`shippingQuoteRequired`, `fixedPrice`, `estimateIncludesDelivery`" + `) means false. Never invent a
product ID. The price per gift is ` + "`priceCents + shippingCents`" + ` in USD cents; with ` + "`shippingQuoteRequired`" + `
it excludes delivery and may end higher, so never present it as a delivered total. In live mode only
verified gifts can be ordered.
`

// renderCatalogSummary renders the selectable gifts (core.Product.Selectable:
// rules 1-3) in catalog order.
func renderCatalogSummary(products []catalog.Product) string {
	var b strings.Builder
	var selectable []catalog.Product
	for _, p := range products {
		if p.Selectable() == nil {
			selectable = append(selectable, p)
		}
	}
	b.WriteString("# Giftwell catalog summary\n\n")
	fmt.Fprintf(&b, "%d of the catalog's %d gifts can be chosen for a new campaign now. Prices are in USD; the "+
		"price per gift is price + shipping and includes delivery unless the flags say `shippingQuoteRequired`.\n\n",
		len(selectable), len(products))
	b.WriteString(selectionRules)
	b.WriteString("\n## Gifts\n\n")
	table(&b, "productId", "Name", "Category", "Price", "Shipping", "Price per gift", "Verified", "Flags")
	for _, p := range selectable {
		row(&b, "`"+p.ID+"`", p.Name, p.Category, core.Dollars(p.PriceCents), core.Dollars(p.ShippingCents),
			core.Dollars(p.UnitCents()), yesNo(p.Verified), strings.Join(flags(p), ", "))
	}
	return b.String()
}

// flags lists a gift's notable flags in the spec's words.
func flags(p catalog.Product) []string {
	var f []string
	add := func(on bool, name string) {
		if on {
			f = append(f, name)
		}
	}
	add(p.ShippingQuoteRequired, "shippingQuoteRequired")
	add(p.FixedPrice, "fixedPrice")
	add(p.EstimateIncludesDelivery, "estimateIncludesDelivery")
	add(p.FulfillmentKind == catalog.FulfillmentFood, "food")
	add(p.FulfillmentKind == catalog.FulfillmentAlcohol, "alcohol")
	add(p.RequiresPortrait, "requiresPortrait")
	add(p.RequiresArtwork, "requiresArtwork")
	add(p.PersonalizationText != nil, "personalizationText")
	add(len(p.RecipientDetails) > 0, "recipientDetails")
	add(p.PrepaidOffer != nil, "prepaidOffer")
	add(p.Featured, "featured")
	return f
}
