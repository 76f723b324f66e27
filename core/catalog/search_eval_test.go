package catalog_test

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/internal/apptest"
)

// searchEvalQuery is one query of testdata/search_eval.json: search_gifts'
// inputs and the gifts a person would accept.
type searchEvalQuery struct {
	Query                string `json:"query"`
	UseCase              string `json:"useCase"`
	BudgetCents          int64  `json:"budgetCents"`
	RecipientCount       int    `json:"recipientCount"`
	ExcludeFood          bool   `json:"excludeFood"`
	ExcludeAlcohol       bool   `json:"excludeAlcohol"`
	ExcludePortrait      bool   `json:"excludePortrait"`
	ExcludeArtwork       bool   `json:"excludeArtwork"`
	RequireKnownShipping bool   `json:"requireKnownShipping"`
	// TextExcludes are the exclusions written in the query's words ("no
	// food"): food, alcohol, portrait or artwork. No result may break them.
	TextExcludes []string `json:"textExcludes"`
	Accept       []string `json:"accept"`
}

func (q searchEvalQuery) params() catalog.SearchParams {
	p := catalog.SearchParams{Query: q.Query, UseCase: q.UseCase, ExcludeFood: q.ExcludeFood, ExcludeAlcohol: q.ExcludeAlcohol,
		ExcludePortrait: q.ExcludePortrait, ExcludeArtwork: q.ExcludeArtwork, RequireKnownShipping: q.RequireKnownShipping}
	if q.BudgetCents > 0 {
		p.BudgetCents = &q.BudgetCents
	}
	if q.RecipientCount > 0 {
		p.RecipientCount = &q.RecipientCount
	}
	return p
}

// excludes reports whether the query excludes what (food, alcohol,
// portrait or artwork), by a flag or in its words.
func (q searchEvalQuery) excludes(what string) bool {
	flag := map[string]bool{"food": q.ExcludeFood, "alcohol": q.ExcludeAlcohol, "portrait": q.ExcludePortrait, "artwork": q.ExcludeArtwork}
	return flag[what] || slices.Contains(q.TextExcludes, what)
}

// searchEvalFloor is the precision at 3 the ranking must keep on the
// evaluation set, a little under the level reached (0.862 over 98 queries).
// It guards against regressions; it is not a target to tune the catalog or
// the set to.
const searchEvalFloor = 0.85

// readSearchEval reads testdata/search_eval.json.
func readSearchEval(t testing.TB) []searchEvalQuery {
	t.Helper()
	raw, err := os.ReadFile("testdata/search_eval.json")
	require.NoError(t, err)
	var set struct {
		Queries []searchEvalQuery `json:"queries"`
	}
	require.NoError(t, json.Unmarshal(raw, &set))
	return set.Queries
}

// TestSearchEvaluation runs every query of testdata/search_eval.json against
// the embedded catalog in test mode (where unverified gifts are returned
// too) and reports precision at 3: for each query, the share of its first
// three results a person would accept, out of three (or out of the number of
// acceptable gifts when fewer), averaged over the queries.
func TestSearchEvaluation(t *testing.T) {
	t.Parallel()
	queries := readSearchEval(t)
	require.GreaterOrEqual(t, len(queries), 80)

	products := apptest.EmbeddedCatalog(t)
	byID := map[string]catalog.Product{}
	for _, p := range products {
		byID[p.ID] = p
	}
	total := 0.0
	for _, q := range queries {
		require.NotEmpty(t, q.Accept, q.Query)
		for _, id := range q.Accept {
			g, ok := byID[id]
			require.True(t, ok, "%q accepts %s, which is not in the catalog", q.Query, id)
			require.True(t, g.Selectable() == nil && g.Verified, "%q accepts %s, which cannot be ordered in live mode", q.Query, id)
		}
		for _, what := range q.TextExcludes {
			require.Contains(t, []string{"food", "alcohol", "portrait", "artwork"}, what, q.Query)
		}
		res, err := catalog.SearchCatalog(products, q.params())
		require.NoError(t, err, q.Query)
		top := itemIDs(res.Items)[:min(3, len(res.Items))]
		hits := 0
		for _, id := range top {
			if slices.Contains(q.Accept, id) {
				hits++
			}
		}
		p := float64(hits) / float64(min(3, len(q.Accept)))
		total += p
		if p < 1 {
			t.Logf("P@3 %.2f  %q: top 3 %v", p, q.Query, top)
		}
	}
	precision := total / float64(len(queries))
	t.Logf("precision at 3 over %d queries: %.3f", len(queries), precision)
	require.GreaterOrEqual(t, precision, searchEvalFloor)
}

// TestSearchEvaluationKeepsTheHardRules checks every result of every query
// of the evaluation set, not only the first three: the selection rules, the
// exclusions (as flags or in the query's words), known delivery when
// required, the per-gift budget, and verified gifts before unverified ones;
// and the same query ranks the same gifts every time.
func TestSearchEvaluationKeepsTheHardRules(t *testing.T) {
	t.Parallel()
	products := apptest.EmbeddedCatalog(t)
	byID := map[string]catalog.Product{}
	for _, p := range products {
		byID[p.ID] = p
	}
	for _, q := range readSearchEval(t) {
		p := q.params()
		p.Limit = apptest.Ptr(core.MaxPageLimit)
		res, err := catalog.SearchCatalog(products, p)
		require.NoError(t, err, q.Query)
		require.NotEmpty(t, res.Items, q.Query)
		for range 3 {
			again, err := catalog.SearchCatalog(products, p)
			require.NoError(t, err, q.Query)
			require.Equal(t, itemIDs(res.Items), itemIDs(again.Items), "%q is ranked the same every time", q.Query)
		}
		unverifiedSeen := false
		for _, item := range res.Items {
			g := byID[item.ID]
			require.NoError(t, g.Selectable(), "%q returned %s", q.Query, g.ID)
			require.False(t, q.excludes("food") && g.FulfillmentKind == catalog.FulfillmentFood, "%q excludes food but returned %s", q.Query, g.ID)
			require.False(t, q.excludes("alcohol") && g.FulfillmentKind == catalog.FulfillmentAlcohol, "%q excludes alcohol but returned %s", q.Query, g.ID)
			require.False(t, q.excludes("portrait") && g.RequiresPortrait, "%q excludes portraits but returned %s", q.Query, g.ID)
			require.False(t, q.excludes("artwork") && g.RequiresArtwork, "%q excludes artwork but returned %s", q.Query, g.ID)
			require.False(t, q.RequireKnownShipping && g.ShippingQuoteRequired, "%q requires known shipping but returned %s", q.Query, g.ID)
			if q.BudgetCents > 0 {
				require.LessOrEqual(t, g.UnitCents(), q.BudgetCents, "%q has a budget of %d cents but returned %s", q.Query, q.BudgetCents, g.ID)
			}
			require.False(t, unverifiedSeen && g.Verified, "%q ranked verified %s after an unverified gift", q.Query, g.ID)
			unverifiedSeen = unverifiedSeen || !g.Verified
		}
	}
}
