package catalog

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

// WaitBackground waits for the store's background refreshes to finish.
func (s *Store) WaitBackground() { s.background.Wait() }

// RefreshesRunning is how many background refreshes are under way.
func (s *Store) RefreshesRunning() int { return int(s.running.Load()) }

// SeedCatalogWith seeds products as if they were the embedded catalog with
// the given digest: for tests of a release that changes the embedded catalog.
func SeedCatalogWith(ctx context.Context, pool *pgxpool.Pool, products []Product, digest string) error {
	return seedCatalog(ctx, pool, products, digest)
}

// SearchOverIndex returns search over products read into an index once, as
// Store.Search does with its snapshot: for the benchmark.
func SearchOverIndex(products []Product) func(SearchParams) (SearchResult, error) {
	idx := newSearchIndex(products)
	return func(p SearchParams) (SearchResult, error) { return searchCatalog(products, idx, p) }
}

// GiftBoxImage is the illustration a product without a picture shows.
func GiftBoxImage() Image {
	im, _ := shippedImage(giftBoxImage)
	return im
}

// ShippedImages are the built-in illustrations' file names and bytes.
func ShippedImages() map[string][]byte {
	entries, err := shippedImages.ReadDir("images")
	if err != nil {
		panic(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		data, err := shippedImages.ReadFile("images/" + e.Name())
		if err != nil {
			panic(err)
		}
		out[e.Name()] = data
	}
	return out
}
