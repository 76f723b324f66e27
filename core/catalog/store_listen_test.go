package catalog_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/internal/testdb"
)

// TestCatalogStoreListensForChanges: two stores on one database stand for
// two instances. An import by another process notifies catalog_changed and
// both serve the new catalog within a second, their clocks standing still
// (no CatalogMaxAge check); after Close the listener is gone.
func TestCatalogStoreListensForChanges(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.New(t)
	clock := core.NewFakeClock(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	var stores []*catalog.Store
	for range 2 {
		s := catalog.NewStore(pool).WithClock(clock)
		t.Cleanup(s.Close)
		_, err := s.Products(ctx)
		require.NoError(t, err)
		s.Listen()
		require.Eventually(t, s.Listening, 5*time.Second, 10*time.Millisecond)
		stores = append(stores, s)
	}

	start := time.Now()
	_, err := catalog.ImportCatalog(ctx, pool, strings.NewReader(twoGiftCatalog))
	require.NoError(t, err)
	for _, s := range stores {
		require.Eventually(t, func() bool {
			got, err := s.Products(ctx)
			return err == nil && len(got) == 2 && got[0].ID == "desk-lamp"
		}, time.Second, 5*time.Millisecond)
	}
	t.Logf("both stores served the imported catalog %v after the import", time.Since(start).Round(time.Millisecond))

	stores[0].Close()
	require.False(t, stores[0].Listening())
}
