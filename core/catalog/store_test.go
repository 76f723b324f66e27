package catalog_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/internal/testdb"
	"github.com/giftwell/giftwell/sql/db"
)

func productIDs(products []catalog.Product) []string {
	out := make([]string, len(products))
	for i, p := range products {
		out[i] = p.ID
	}
	return out
}

func catalogVersion(t *testing.T, ctx context.Context, q *db.Queries) int64 {
	t.Helper()
	st, err := q.CatalogStateGet(ctx)
	require.NoError(t, err)
	return st.Version
}

const twoGiftCatalog = `[
  {"id": "desk-lamp", "name": "Desk Lamp", "priceCents": 4500, "shippingCents": 900, "verified": true},
  {"id": "tea-set", "name": "Tea Set", "priceCents": 3900, "shippingCents": 800, "fulfillmentKind": "food", "dietaryNote": "Contains tea."}
]`

func TestCatalogStoreServesTheSeededCatalogFromMemory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.New(t)
	store := catalog.NewStore(pool)

	products, err := store.Products(ctx)
	require.NoError(t, err)
	embedded := apptest.EmbeddedCatalog(t)
	require.Equal(t, embedded, products, "the stored catalog round-trips every field")
	v, err := store.Version(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 1, v)

	// From here on the store must not touch the database.
	pool.Close()

	got, err := store.Get(ctx, embedded[3].ID)
	require.NoError(t, err)
	require.Equal(t, embedded[3], got)

	_, err = store.Get(ctx, "invented-gift")
	e := apptest.RequireCode(t, err, core.CodeNotFound)
	require.Equal(t, []string{"productId"}, e.Fields)
	require.Contains(t, e.Message, "never invent a product ID")

	_, err = store.Get(ctx, "")
	e = apptest.RequireCode(t, err, core.CodeValidation)
	require.Equal(t, []string{"productId"}, e.Fields)
	_, err = store.Get(ctx, strings.Repeat("x", 201))
	apptest.RequireCode(t, err, core.CodeValidation)

	res, err := store.Search(ctx, catalog.SearchParams{Query: "bourbon"})
	require.NoError(t, err)
	require.Equal(t, "bourbon-tasting-flight", res.Items[0].ID)
	page, err := store.Browse(ctx, catalog.BrowseParams{Limit: apptest.Ptr(3)})
	require.NoError(t, err)
	require.Len(t, page.Items, 3)

	// A caller changing its copy does not change the store's.
	products[0].Name = "changed"
	again, err := store.Products(ctx)
	require.NoError(t, err)
	require.Equal(t, embedded[0].Name, again[0].Name)
}

func TestImportCatalogReplacesItAndStoresReload(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.New(t)
	q := db.New(pool)
	clock := core.NewFakeClock(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	store := catalog.NewStore(pool).WithClock(clock)
	before, err := store.Products(ctx)
	require.NoError(t, err)
	require.Equal(t, productIDs(apptest.EmbeddedCatalog(t)), productIDs(before))

	// A catalog that fails validation changes nothing.
	_, err = catalog.ImportCatalog(ctx, pool, strings.NewReader(`[{"id":"a","name":"A","priceCents":-1}]`))
	e := apptest.RequireCode(t, err, core.CodeValidation)
	require.Contains(t, e.Message, `product "a" (#0): priceCents`)
	require.EqualValues(t, 1, catalogVersion(t, ctx, q))

	n, err := catalog.ImportCatalog(ctx, pool, strings.NewReader(twoGiftCatalog))
	require.NoError(t, err)
	require.Equal(t, 2, n)
	require.EqualValues(t, 2, catalogVersion(t, ctx, q))

	// Within CatalogMaxAge the store keeps serving its copy.
	clock.Advance(catalog.CatalogMaxAge - time.Second)
	got, err := store.Products(ctx)
	require.NoError(t, err)
	require.Equal(t, productIDs(before), productIDs(got))

	// Past it, a read still gets the current copy and starts a reload.
	clock.Advance(time.Second)
	got, err = store.Products(ctx)
	require.NoError(t, err)
	require.Equal(t, productIDs(before), productIDs(got))
	store.WaitBackground()

	got, err = store.Products(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"desk-lamp", "tea-set"}, productIDs(got))
	require.Equal(t, catalog.FulfillmentStandard, got[0].FulfillmentKind)
	v, err := store.Version(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 2, v)
	_, err = store.Get(ctx, before[0].ID)
	apptest.RequireCode(t, err, core.CodeNotFound)

	// Seeding never replaces an imported catalog.
	require.NoError(t, catalog.SeedCatalog(ctx, pool))
	require.EqualValues(t, 2, catalogVersion(t, ctx, q))

	// Another process's store loads the imported catalog directly.
	other, err := catalog.NewStore(pool).Products(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"desk-lamp", "tea-set"}, productIDs(other))

	// Refresh reloads at once, without waiting for the age.
	_, err = catalog.ImportCatalog(ctx, pool, strings.NewReader(`[{"id":"only","name":"Only","priceCents":100}]`))
	require.NoError(t, err)
	require.NoError(t, store.Refresh(ctx))
	got, err = store.Products(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"only"}, productIDs(got))
}

func TestSeedCatalogConcurrentlyOnAnEmptyDatabase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.New(t)
	q := db.New(pool)
	require.NoError(t, q.CatalogDeleteAll(ctx))

	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() { errs <- catalog.SeedCatalog(ctx, pool) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.EqualValues(t, 1, catalogVersion(t, ctx, q), "one seed stored the catalog, the others found it")
	products, err := catalog.NewStore(pool).Products(ctx)
	require.NoError(t, err)
	require.Equal(t, productIDs(apptest.EmbeddedCatalog(t)), productIDs(products))

	require.NoError(t, catalog.SeedCatalog(ctx, pool))
	require.EqualValues(t, 1, catalogVersion(t, ctx, q), "seeding is idempotent")

	// A release with a different embedded catalog replaces a seeded one.
	next := apptest.EmbeddedCatalog(t)[:5]
	require.NoError(t, catalog.SeedCatalogWith(ctx, pool, next, "another-release"))
	require.EqualValues(t, 2, catalogVersion(t, ctx, q))
	products, err = catalog.NewStore(pool).Products(ctx)
	require.NoError(t, err)
	require.Equal(t, productIDs(next), productIDs(products))
}

func TestCatalogStoreSeedsAnEmptyDatabaseOnFirstUse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.New(t)
	require.NoError(t, db.New(pool).CatalogDeleteAll(ctx))

	store := catalog.NewStore(pool)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			p, err := store.Get(ctx, "engraved-walnut-desk-organizer")
			assert.NoError(t, err)
			assert.Equal(t, "Engraved Walnut Desk Organizer", p.Name)
		})
	}
	wg.Wait()
	require.EqualValues(t, 1, catalogVersion(t, ctx, db.New(pool)))
}

func TestCatalogStoreReadsRaceWithReloads(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.New(t)
	clock := core.NewFakeClock(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	store := catalog.NewStore(pool).WithClock(clock)
	_, err := store.Products(ctx)
	require.NoError(t, err)

	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 50 {
				if i == 0 {
					clock.Advance(catalog.CatalogMaxAge)
				}
				_, err := store.Search(ctx, catalog.SearchParams{Query: "gift"})
				assert.NoError(t, err)
				_, err = store.Browse(ctx, catalog.BrowseParams{IncludeRetired: true})
				assert.NoError(t, err)
			}
		})
	}
	wg.Go(func() {
		for range 3 {
			_, err := catalog.ImportCatalog(ctx, pool, strings.NewReader(twoGiftCatalog))
			assert.NoError(t, err)
		}
	})
	wg.Wait()
	store.WaitBackground()
	require.NoError(t, store.Refresh(ctx))
	v, err := store.Version(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 4, v)
}

func TestCatalogStoreCloseWaitsForTheBackgroundRefresh(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.New(t)
	clock := core.NewFakeClock(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	store := catalog.NewStore(pool).WithClock(clock)
	before, err := store.Products(ctx)
	require.NoError(t, err)

	// Hold the catalog's version row so that a refresh blocks on it.
	tx, err := pool.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }()
	_, err = tx.Exec(ctx, "LOCK TABLE catalog_state IN ACCESS EXCLUSIVE MODE")
	require.NoError(t, err)

	clock.Advance(catalog.CatalogMaxAge)
	got, err := store.Products(ctx)
	require.NoError(t, err, "a stale read serves the current copy")
	require.Equal(t, productIDs(before), productIDs(got))
	require.Equal(t, 1, store.RefreshesRunning(), "the stale read started a background refresh")

	// The refresh cannot finish while the lock is held: Close must cancel it
	// and return only once it has exited.
	store.Close()
	require.Equal(t, 0, store.RefreshesRunning(), "Close returned with a refresh still running")

	// A closed store keeps serving its copy and starts no refresh.
	clock.Advance(catalog.CatalogMaxAge)
	got, err = store.Products(ctx)
	require.NoError(t, err)
	require.Equal(t, productIDs(before), productIDs(got))
	require.Equal(t, 0, store.RefreshesRunning())
	store.Close() // twice is fine
}
