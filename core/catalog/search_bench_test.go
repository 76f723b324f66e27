package catalog_test

import (
	"testing"

	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/internal/apptest"
)

// BenchmarkSearch runs every query of the evaluation set against the
// embedded catalog read into an index once, as Store.Search does; one
// operation is one query.
//
//	go test -run '^$' -bench BenchmarkSearch ./core/catalog/
func BenchmarkSearch(b *testing.B) {
	search := catalog.SearchOverIndex(apptest.EmbeddedCatalog(b))
	queries := readSearchEval(b)
	params := make([]catalog.SearchParams, len(queries))
	for i, q := range queries {
		params[i] = q.params()
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := search(params[i%len(params)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
