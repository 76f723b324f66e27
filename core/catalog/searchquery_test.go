package catalog_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestSearchReadsExclusionsFromTheQuery(t *testing.T) {
	t.Parallel()
	all := apptest.Ptr(100)
	cases := []struct {
		query string
		want  []string
	}{
		{"alcohol", []string{"bourbon-flight"}},
		{"no alcohol", withoutIDs(selectableHand, "bourbon-flight")},
		{"mug, no alcohol", []string{"ceramic-mug", "stoneware-mug"}},
		{"alcohol-free celebration", withoutIDs(selectableHand, "bourbon-flight")},
		{"alcohol free", withoutIDs(selectableHand, "bourbon-flight")},
		{"non-alcoholic", withoutIDs(selectableHand, "bourbon-flight")},
		{"nonalcoholic", withoutIDs(selectableHand, "bourbon-flight")},
		{"without any alcohol", withoutIDs(selectableHand, "bourbon-flight")},
		{"-alcohol", withoutIDs(selectableHand, "bourbon-flight")},
		{"no food or alcohol", withoutIDs(selectableHand, "bourbon-flight", "logo-cookies")},
		{"no alcohol and food", withoutIDs(selectableHand, "bourbon-flight", "logo-cookies")},
		{"without a logo", withoutIDs(selectableHand, "logo-tumbler", "logo-cookies")},
		{"does not need our artwork", withoutIDs(selectableHand, "logo-tumbler", "logo-cookies")},
		{"no photo needed", withoutIDs(selectableHand, "portrait")},
		{"nothing edible", withoutIDs(selectableHand, "logo-cookies")},
		{"no mugs", withoutIDs(selectableHand, "ceramic-mug", "stoneware-mug")},
		{"-mug tumbler", []string{"logo-tumbler"}},
		{"known shipping", withoutIDs(selectableHand, "stoneware-mug", "freight-canvas")},
		{"mug with shipping included", []string{"ceramic-mug"}},
		{"free delivery, no food", withoutIDs(selectableHand, "stoneware-mug", "freight-canvas", "logo-cookies")},
		{"no more than $30", []string{"ceramic-mug", "stoneware-mug", "logo-tumbler", "logo-cookies", "bourbon-flight",
			"portrait", "headphones", "freight-canvas", "smart-notebook"}},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			t.Parallel()
			res, err := catalog.SearchCatalog(handCatalog(), catalog.SearchParams{Query: c.query, Limit: all})
			require.NoError(t, err)
			require.Equal(t, c.want, itemIDs(res.Items))
		})
	}

	res, err := catalog.SearchCatalog(handCatalog(), catalog.SearchParams{Query: "celebrate, no alcohol"})
	require.NoError(t, err)
	require.NotContains(t, itemIDs(res.Items), "bourbon-flight", "an excluded gift never ranks, even when it matches other words")
	require.Contains(t, res.NextStep.Instructions, "left out gifts it excludes (alcohol)")
	require.Contains(t, res.NextStep.Instructions, `No gift matched the words of query "celebrate, no alcohol"`)
}

func TestSearchReadsKnownShippingFromTheQuery(t *testing.T) {
	t.Parallel()
	res, err := catalog.SearchCatalog(handCatalog(), catalog.SearchParams{Query: "canvas print, known shipping"})
	require.NoError(t, err)
	require.NotContains(t, itemIDs(res.Items), "freight-canvas", "the only canvas has delivery quoted per address")
	require.NotContains(t, itemIDs(res.Items), "stoneware-mug")
	require.Contains(t, res.NextStep.Instructions, `left out gifts whose delivery is not priced yet ("known shipping")`)

	res, err = catalog.SearchCatalog(handCatalog(), catalog.SearchParams{Query: "canvas print, shipping quoted later is fine"})
	require.NoError(t, err)
	require.Equal(t, []string{"freight-canvas"}, itemIDs(res.Items), "known delivery is read only from a request for it")

	res, err = catalog.SearchCatalog(handCatalog(), catalog.SearchParams{Query: "no free shipping needed"})
	require.NoError(t, err)
	require.Contains(t, itemIDs(res.Items), "freight-canvas", "a negated request holds nothing")
}

func TestSearchRanksVerifiedThenBudgetThenKnownDelivery(t *testing.T) {
	t.Parallel()
	res, err := catalog.SearchCatalog(handCatalog(), catalog.SearchParams{Query: "smart notebook tumbler"})
	require.NoError(t, err)
	require.Equal(t, []string{"logo-tumbler", "smart-notebook"}, itemIDs(res.Items), "verified before unverified, whatever the relevance")
	require.NotContains(t, res.NextStep.Instructions, "not verified")

	res, err = catalog.SearchCatalog(handCatalog(), catalog.SearchParams{Query: "smart notebook"})
	require.NoError(t, err)
	require.Equal(t, []string{"smart-notebook"}, itemIDs(res.Items))
	require.Contains(t, res.NextStep.Instructions, "the first is not verified, so live mode cannot order it")

	res, err = catalog.SearchCatalog(handCatalog(), catalog.SearchParams{Query: "mug or tumbler, about $30"})
	require.NoError(t, err)
	require.Equal(t, []string{"ceramic-mug", "stoneware-mug", "logo-tumbler"}, itemIDs(res.Items), "within the written amount (plus a tenth) first")
	require.Contains(t, res.NextStep.Instructions, `within 3300 cents first for "about $30"`)

	res, err = catalog.SearchCatalog(handCatalog(), catalog.SearchParams{Query: "mug or tumbler under 25 dollars"})
	require.NoError(t, err)
	require.Equal(t, []string{"ceramic-mug", "stoneware-mug", "logo-tumbler"}, itemIDs(res.Items))
	require.Contains(t, res.NextStep.Instructions, "within 2500 cents")

	res, err = catalog.SearchCatalog(handCatalog(), catalog.SearchParams{Query: "stoneware mug"})
	require.NoError(t, err)
	require.Equal(t, []string{"stoneware-mug", "ceramic-mug"}, itemIDs(res.Items), "without a budget, relevance before known delivery")

	res, err = catalog.SearchCatalog(handCatalog(), catalog.SearchParams{Query: "stoneware mug", BudgetCents: apptest.Ptr[int64](10000)})
	require.NoError(t, err)
	require.Equal(t, []string{"ceramic-mug", "stoneware-mug"}, itemIDs(res.Items), "when the budget must hold, known delivery first")
	require.NotContains(t, res.NextStep.Instructions, "cents first", "budgetCents holds; the query's words add no second budget")
}

func TestSearchFallsBackToUseCaseAndBudget(t *testing.T) {
	t.Parallel()
	res, err := catalog.SearchCatalog(handCatalog(), catalog.SearchParams{Query: "kayak", UseCase: "portrait", BudgetCents: apptest.Ptr[int64](20000)})
	require.NoError(t, err)
	require.Equal(t, []string{"portrait", "logo-tumbler", "ceramic-mug", "logo-cookies", "bourbon-flight", "stoneware-mug", "freight-canvas", "smart-notebook"},
		itemIDs(res.Items))
	require.Equal(t, 8, res.Matched)
	require.Equal(t, "portrait", res.NextStep.ProductID)
	require.Contains(t, res.NextStep.Instructions, `No gift matched the words of query "kayak", so these are the best gifts for the use case and budget instead`)

	res, err = catalog.SearchCatalog(handCatalog(), catalog.SearchParams{Query: "headphones kayak", BudgetCents: apptest.Ptr[int64](5000)})
	require.NoError(t, err)
	require.NotContains(t, itemIDs(res.Items), "headphones")
	require.Contains(t, res.NextStep.Instructions, "the budget and filters alone (no useCase was given)")
	require.Contains(t, res.NextStep.Instructions, "a gift matching the words costs 30000 cents per gift, over budgetCents")
}

func TestSearchStemsAndVocabulary(t *testing.T) {
	t.Parallel()
	products := apptest.EmbeddedCatalog(t)
	cases := []struct {
		query string
		want  string
	}{
		{"engraving", "engraved-"},
		{"monogrammed", "monogram-leather-padfolio"},
		{"whisky", "bourbon-tasting-flight"},
		{"sweater", "embroidered-quarter-zip"},
		{"custom portrait", "custom-portrait-illustration"},
	}
	for _, c := range cases {
		res, err := catalog.SearchCatalog(products, catalog.SearchParams{Query: c.query})
		require.NoError(t, err)
		require.NotEmpty(t, res.Items, c.query)
		require.Contains(t, res.Items[0].ID, c.want, c.query)
	}
	res, err := catalog.SearchCatalog(products, catalog.SearchParams{Query: "customer"})
	require.NoError(t, err)
	require.Equal(t, []string{"logo-golf-balls", "sales-leadership-book-bundle"}, itemIDs(res.Items)[:2],
		"customer is not custom: the gifts that mention customers rank first, and the custom ones do not match")
}
