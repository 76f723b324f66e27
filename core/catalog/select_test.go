package catalog_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/internal/apptest"
)

func availableTrue() *bool  { t := true; return &t }
func availableFalse() *bool { f := false; return &f }

// handCatalog is a small catalog with one gift per rule and flag. Its order
// matters: ties fall back to it, so the gifts a tie-break must lift come later.
func handCatalog() []catalog.Product {
	g := func(id, name string, price, shipping int64) catalog.Product {
		return catalog.Product{ID: id, Name: name, Tagline: "A gift.", Category: "Gifts", PriceCents: price,
			ShippingCents: shipping, Verified: true, FulfillmentKind: catalog.FulfillmentStandard}
	}
	stoneware := g("stoneware-mug", "Stoneware Mug", 2000, 0)
	stoneware.ShippingQuoteRequired = true
	mug := g("ceramic-mug", "Ceramic Mug", 2000, 500)
	pen := g("retired-pen", "Engraved Pen", 3000, 500)
	pen.Retired, pen.Available = true, availableTrue()
	wine := g("unavailable-wine", "Red Wine", 5000, 1000)
	wine.Available, wine.FulfillmentKind = availableFalse(), catalog.FulfillmentAlcohol
	socks := g("quote-socks", "Logo Socks", 1500, 500)
	socks.PriceQuoteRequired = true
	placeholder := g("placeholder-sneakers", "Sneakers", 0, 0)
	canvas := g("freight-canvas", "Canvas Print", 9000, 0)
	canvas.ShippingQuoteRequired = true
	cookies := g("logo-cookies", "Logo Cookies", 4000, 1000)
	cookies.FulfillmentKind, cookies.RequiresArtwork = catalog.FulfillmentFood, true
	bourbon := g("bourbon-flight", "Bourbon Flight", 9000, 1500)
	bourbon.FulfillmentKind = catalog.FulfillmentAlcohol
	bourbon.Description = "Four small-batch pours to celebrate."
	portrait := g("portrait", "Portrait Illustration", 12000, 1500)
	portrait.RequiresPortrait = true
	tumbler := g("logo-tumbler", "Logo Tumbler", 3000, 800)
	tumbler.RequiresArtwork, tumbler.Featured = true, true
	notebook := g("smart-notebook", "Smart Notebook", 3000, 700)
	notebook.Verified = false
	headphones := g("headphones", "Headphones", 30000, 0)
	headphones.EstimateIncludesDelivery = true
	return []catalog.Product{stoneware, mug, pen, wine, socks, placeholder, canvas, cookies, bourbon, portrait, tumbler, notebook, headphones}
}

// selectableHand is every gift of handCatalog that passes rules 1-3, in the
// order a search without words ranks them: verified first, then known
// delivery (rule 4), then featured, then catalog order.
var selectableHand = []string{"logo-tumbler", "ceramic-mug", "logo-cookies", "bourbon-flight", "portrait",
	"headphones", "stoneware-mug", "freight-canvas", "smart-notebook"}

func itemIDs(items []catalog.SearchItem) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.ID)
	}
	return out
}

func withoutIDs(list []string, drop ...string) []string {
	var out []string
	for _, id := range list {
		keep := true
		for _, d := range drop {
			keep = keep && id != d
		}
		if keep {
			out = append(out, id)
		}
	}
	return out
}

func TestSearchSelectionRulesAndFilters(t *testing.T) {
	t.Parallel()
	all := apptest.Ptr(100)
	cases := []struct {
		name string
		p    catalog.SearchParams
		want []string
	}{
		{"rules 1-3 leave out retired (even available), unavailable, priceQuoteRequired and priceCents 0",
			catalog.SearchParams{Limit: all}, selectableHand},
		{"excludeFood", catalog.SearchParams{Limit: all, ExcludeFood: true}, withoutIDs(selectableHand, "logo-cookies")},
		{"excludeAlcohol", catalog.SearchParams{Limit: all, ExcludeAlcohol: true}, withoutIDs(selectableHand, "bourbon-flight")},
		{"excludePortrait", catalog.SearchParams{Limit: all, ExcludePortrait: true}, withoutIDs(selectableHand, "portrait")},
		{"excludeArtwork", catalog.SearchParams{Limit: all, ExcludeArtwork: true}, withoutIDs(selectableHand, "logo-cookies", "logo-tumbler")},
		{"requireKnownShipping", catalog.SearchParams{Limit: all, RequireKnownShipping: true}, withoutIDs(selectableHand, "stoneware-mug", "freight-canvas")},
		{"budget is per gift, price plus shipping, inclusive", catalog.SearchParams{Limit: all, BudgetCents: apptest.Ptr[int64](2500)},
			[]string{"ceramic-mug", "stoneware-mug"}},
		{"budget one cent under", catalog.SearchParams{Limit: all, BudgetCents: apptest.Ptr[int64](2499)}, []string{"stoneware-mug"}},
		{"live mode returns verified gifts only", catalog.SearchParams{Limit: all, Mode: core.ModeLive}, withoutIDs(selectableHand, "smart-notebook")},
		{"every filter at once", catalog.SearchParams{Limit: all, ExcludeFood: true, ExcludeAlcohol: true, ExcludePortrait: true,
			ExcludeArtwork: true, RequireKnownShipping: true, BudgetCents: apptest.Ptr[int64](4000)}, []string{"ceramic-mug", "smart-notebook"}},
		{"a query keeps gifts matching one of its words", catalog.SearchParams{Query: "bourbon"}, []string{"bourbon-flight"}},
		{"a query matching nothing falls back to the filters", catalog.SearchParams{Query: "kayak", Limit: all}, selectableHand},
		{"a query cannot bring back a retired gift", catalog.SearchParams{Query: "engraved pen", Limit: all}, selectableHand},
		{"rule 4: known delivery first among equals", catalog.SearchParams{Query: "mug"}, []string{"ceramic-mug", "stoneware-mug"}},
		{"featured first among equals", catalog.SearchParams{Query: "logo"}, []string{"logo-tumbler", "logo-cookies"}},
		{"stems meet: celebrating finds celebrate", catalog.SearchParams{Query: "celebrating"}, []string{"bourbon-flight"}},
		{"useCase ranks but excludes nothing", catalog.SearchParams{Limit: all, UseCase: "portrait"},
			append([]string{"portrait"}, withoutIDs(selectableHand, "portrait")...)},
		{"query counts more than useCase", catalog.SearchParams{Query: "tumbler headphones", UseCase: "headphones"},
			[]string{"headphones", "logo-tumbler"}},
		{"limit", catalog.SearchParams{Limit: apptest.Ptr(2)}, selectableHand[:2]},
		{"default limit is 10", catalog.SearchParams{}, selectableHand},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res, err := catalog.SearchCatalog(handCatalog(), c.p)
			require.NoError(t, err)
			require.Equal(t, c.want, itemIDs(res.Items))
		})
	}
}

func TestSearchEstimates(t *testing.T) {
	t.Parallel()
	res, err := catalog.SearchCatalog(handCatalog(), catalog.SearchParams{Query: "mug canvas headphones", RecipientCount: apptest.Ptr(25), UseCase: "onboarding"})
	require.NoError(t, err)
	require.Equal(t, 25, res.RecipientCount)
	require.Equal(t, "onboarding", res.UseCase)
	require.Nil(t, res.BudgetCents)
	require.Equal(t, 4, res.Matched)
	byID := map[string]catalog.SearchItem{}
	for _, it := range res.Items {
		byID[it.ID] = it
	}
	mug := byID["ceramic-mug"]
	require.EqualValues(t, 2500, mug.EstimatedTotalCents)
	require.EqualValues(t, 62500, mug.CampaignEstimateCents)
	require.True(t, mug.DeliveryIncluded)
	require.Empty(t, mug.EstimateNote)

	canvas := byID["freight-canvas"]
	require.EqualValues(t, 9000, canvas.EstimatedTotalCents)
	require.EqualValues(t, 225000, canvas.CampaignEstimateCents)
	require.False(t, canvas.DeliveryIncluded)
	require.Contains(t, canvas.EstimateNote, "Delivery is not priced yet")
	require.True(t, canvas.ShippingQuoteRequired)

	require.Contains(t, byID["headphones"].EstimateNote, "includes US delivery")

	res, err = catalog.SearchCatalog(handCatalog(), catalog.SearchParams{Query: "notebook", BudgetCents: apptest.Ptr[int64](5000)})
	require.NoError(t, err)
	require.Equal(t, 1, res.RecipientCount, "recipientCount defaults to 1")
	require.EqualValues(t, 5000, *res.BudgetCents)
	require.EqualValues(t, 3700, res.Items[0].CampaignEstimateCents)
	require.Contains(t, res.Items[0].EstimateNote, "Not verified")
}

func TestSearchNextStep(t *testing.T) {
	t.Parallel()
	res, err := catalog.SearchCatalog(handCatalog(), catalog.SearchParams{Query: "bourbon"})
	require.NoError(t, err)
	require.Equal(t, "create_campaign", res.NextStep.Tool)
	require.Equal(t, "bourbon-flight", res.NextStep.ProductID)
	require.Equal(t, "always_on", res.NextStep.Mode)
	require.Contains(t, res.NextStep.Instructions, "get_gift")

	res, err = catalog.SearchCatalog(handCatalog(), catalog.SearchParams{Query: "bourbon", BudgetCents: apptest.Ptr[int64](1000)})
	require.NoError(t, err)
	require.Empty(t, res.Items)
	require.Equal(t, "search_gifts", res.NextStep.Tool)
	require.Empty(t, res.NextStep.ProductID)
	require.Contains(t, res.NextStep.Instructions, "10500 cents")
	require.Contains(t, res.NextStep.Instructions, "Never invent a product ID")
}

func TestSearchBounds(t *testing.T) {
	t.Parallel()
	cases := []struct {
		p     catalog.SearchParams
		field string
	}{
		{catalog.SearchParams{BudgetCents: apptest.Ptr[int64](0)}, "budgetCents"},
		{catalog.SearchParams{BudgetCents: apptest.Ptr[int64](100_000_001)}, "budgetCents"},
		{catalog.SearchParams{RecipientCount: apptest.Ptr(0)}, "recipientCount"},
		{catalog.SearchParams{RecipientCount: apptest.Ptr(2001)}, "recipientCount"},
		{catalog.SearchParams{Limit: apptest.Ptr(0)}, "limit"},
		{catalog.SearchParams{Limit: apptest.Ptr(101)}, "limit"},
		{catalog.SearchParams{Query: strings.Repeat("q", 501)}, "query"},
		{catalog.SearchParams{UseCase: strings.Repeat("u", 501)}, "useCase"},
	}
	for _, c := range cases {
		_, err := catalog.SearchCatalog(handCatalog(), c.p)
		e := apptest.RequireCode(t, err, core.CodeValidation)
		require.Equal(t, []string{c.field}, e.Fields)
		require.True(t, strings.HasPrefix(e.Message, c.field+": "), e.Message)
	}
	for _, p := range []catalog.SearchParams{
		{BudgetCents: apptest.Ptr[int64](1), RecipientCount: apptest.Ptr(1), Limit: apptest.Ptr(1)},
		{BudgetCents: apptest.Ptr[int64](100_000_000), RecipientCount: apptest.Ptr(2000), Limit: apptest.Ptr(100), Query: strings.Repeat("q", 500)},
	} {
		_, err := catalog.SearchCatalog(handCatalog(), p)
		require.NoError(t, err)
	}
}

func TestProductSelectable(t *testing.T) {
	t.Parallel()
	byID := map[string]catalog.Product{}
	for _, p := range handCatalog() {
		byID[p.ID] = p
	}
	cases := map[string]core.Code{
		"retired-pen":          core.CodeGiftRetired,
		"unavailable-wine":     core.CodeGiftUnavailable,
		"quote-socks":          core.CodePriceQuoteRequired,
		"placeholder-sneakers": core.CodePriceQuoteRequired,
	}
	for id, code := range cases {
		e := apptest.RequireCode(t, byID[id].Selectable(), code)
		require.Equal(t, []string{"productId"}, e.Fields)
		require.Contains(t, e.Message, id)
	}
	for _, id := range selectableHand {
		require.NoError(t, byID[id].Selectable(), id)
	}
}
