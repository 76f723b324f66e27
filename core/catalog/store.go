package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// CatalogMaxAge is how long the store serves its copy of the catalog before
// it asks the database, in the background, whether the catalog changed.
const CatalogMaxAge = 60 * time.Second

// catalogRefreshTimeout bounds one background refresh.
const catalogRefreshTimeout = 10 * time.Second

// Store serves the gift catalog from memory, so that catalog reads
// cost no database round trip. The first read loads the catalog (seeding
// the embedded one when the database has none); after CatalogMaxAge a read
// starts one background check of the catalog version, keeps serving the
// current copy meanwhile, and reloads the products only when the version
// changed. Safe for concurrent use: readers share an immutable snapshot.
type Store struct {
	db     *pgxpool.Pool
	clock  core.Clock
	maxAge time.Duration

	snap atomic.Pointer[catalogSnapshot]
	// loadMu serialises loads, so that concurrent first reads query once.
	loadMu     sync.Mutex
	refreshing atomic.Bool

	// life is the background refresh's lifetime: Close cancels it (stop),
	// and no refresh starts once closed is set.
	life       context.Context
	stop       context.CancelFunc
	lifeMu     sync.Mutex // guards closed and background.Go against Close
	closed     bool
	background sync.WaitGroup
	running    atomic.Int32 // background refreshes under way, for tests
	listening  atomic.Bool  // Listen is subscribed (store_listen.go)
}

// catalogSnapshot is one immutable copy of the catalog.
type catalogSnapshot struct {
	version  int64
	products []Product
	byID     map[string]int
	// index is the products read for search.
	index searchIndex
	// images are the products' pictures by product ID.
	images map[string]Image
	// checked is when the version was last compared with the database's.
	checked time.Time
}

// NewStore returns a store over db, on the system clock. It reads
// nothing until the first call.
func NewStore(db *pgxpool.Pool) *Store {
	life, stop := context.WithCancel(context.Background())
	return &Store{db: db, clock: core.SystemClock{}, maxAge: CatalogMaxAge, life: life, stop: stop}
}

// Close stops the background refresh: one under way is cancelled, and Close
// returns only after it has exited. Reads after Close keep serving the copy
// the store has (loading it on first use) and start no background refresh.
// Close is safe to call more than once.
func (s *Store) Close() {
	s.lifeMu.Lock()
	s.closed = true
	s.lifeMu.Unlock()
	s.stop()
	s.background.Wait()
}

// WithClock makes the store measure the catalog's age on c. Call it before
// the store's first use; it returns s.
func (s *Store) WithClock(c core.Clock) *Store {
	s.clock = c
	return s
}

// Products returns the whole catalog in catalog order, including retired
// Products. The returned slice is the caller's; the products in it share
// their lists with the store and must not be changed. Returns
// INTERNAL_ERROR when the catalog cannot be loaded.
func (s *Store) Products(ctx context.Context) ([]Product, error) {
	snap, err := s.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	return slices.Clone(snap.products), nil
}

// Get returns the product with id. It returns VALIDATION_ERROR naming
// productId for an empty or over-long id and NOT_FOUND naming productId for
// an id that is not in the catalog.
func (s *Store) Get(ctx context.Context, id string) (Product, error) {
	if err := checkProductID(id); err != nil {
		return Product{}, err
	}
	snap, err := s.snapshot(ctx)
	if err != nil {
		return Product{}, err
	}
	i, ok := snap.byID[id]
	if !ok {
		return Product{}, &core.Error{Code: core.CodeNotFound, Fields: []string{"productId"},
			Message: fmt.Sprintf("productId: %q is not in the catalog; find one with search_gifts or browse_gifts and never invent a product ID", id)}
	}
	return snap.products[i], nil
}

// Lookup returns the product with id, or nil when the catalog does not
// have it (an empty, over-long or unknown id): for stored records that
// name a product the catalog may have dropped since.
func (s *Store) Lookup(ctx context.Context, id string) (*Product, error) {
	p, err := s.Get(ctx, id)
	if err != nil {
		if e := core.AsError(err); e.Code == core.CodeNotFound || e.Code == core.CodeValidation {
			return nil, nil
		}
		return nil, err
	}
	return &p, nil
}

// Version returns the version of the catalog the store serves.
func (s *Store) Version(ctx context.Context) (int64, error) {
	snap, err := s.snapshot(ctx)
	if err != nil {
		return 0, err
	}
	return snap.version, nil
}

// Refresh compares the store's copy with the database now and reloads it
// when the catalog version changed. Reads call it in the background; call it
// directly after ImportCatalog in the same process to serve the new catalog
// at once. Returns INTERNAL_ERROR when the database cannot be read.
func (s *Store) Refresh(ctx context.Context) error {
	s.loadMu.Lock()
	defer s.loadMu.Unlock()
	return s.refreshLocked(ctx)
}

func checkProductID(id string) error {
	if id == "" {
		return core.Invalid("productId", "is required; use an id from search_gifts or browse_gifts")
	}
	if len([]rune(id)) > MaxProductIDLength {
		return core.Invalid("productId", "must be at most %d characters", MaxProductIDLength)
	}
	return nil
}

// snapshot returns the current copy, loading it on first use and starting a
// background refresh when it is older than maxAge.
func (s *Store) snapshot(ctx context.Context) (*catalogSnapshot, error) {
	cur := s.snap.Load()
	if cur == nil {
		s.loadMu.Lock()
		defer s.loadMu.Unlock()
		if cur = s.snap.Load(); cur != nil {
			return cur, nil
		}
		if err := s.refreshLocked(ctx); err != nil {
			return nil, err
		}
		return s.snap.Load(), nil
	}
	if s.clock.Now().Sub(cur.checked) >= s.maxAge && s.refreshing.CompareAndSwap(false, true) {
		s.startRefresh()
	}
	return cur, nil
}

// startRefresh runs one background refresh within the store's lifetime;
// s.refreshing is set and is cleared when it ends. A closed store starts none.
func (s *Store) startRefresh() {
	s.lifeMu.Lock()
	defer s.lifeMu.Unlock()
	if s.closed {
		s.refreshing.Store(false)
		return
	}
	s.running.Add(1)
	s.background.Go(func() {
		defer s.refreshing.Store(false)
		defer s.running.Add(-1)
		s.refreshNow(s.life)
	})
}

// refreshLocked does the work of Refresh; s.loadMu is held.
func (s *Store) refreshLocked(ctx context.Context) error {
	if s.db == nil {
		return core.Internal(errors.New("catalog: no database"))
	}
	now := s.clock.Now()
	q := db.New(s.db)
	st, err := q.CatalogStateGet(ctx)
	switch {
	case errors.Is(err, pgx.ErrNoRows) || (err == nil && st.Version == 0):
		if err := SeedCatalog(ctx, s.db); err != nil {
			return err
		}
	case err != nil:
		return core.Internal(fmt.Errorf("catalog: read version: %w", err))
	}
	cur := s.snap.Load()
	if err == nil && cur != nil && st.Version == cur.version {
		next := *cur
		next.checked = now
		s.snap.Store(&next)
		return nil
	}
	next, err := loadCatalog(ctx, s.db)
	if err != nil {
		return err
	}
	next.checked = now
	s.snap.Store(next)
	return nil
}

// loadCatalog reads the version and the products in one snapshot of the database.
func loadCatalog(ctx context.Context, pool *pgxpool.Pool) (*catalogSnapshot, error) {
	var snap *catalogSnapshot
	err := pgx.BeginTxFunc(ctx, pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		q := db.New(tx)
		st, err := q.CatalogStateGet(ctx)
		if err != nil {
			return fmt.Errorf("read version: %w", err)
		}
		rows, err := q.CatalogProductList(ctx)
		if err != nil {
			return fmt.Errorf("list products: %w", err)
		}
		pictures, err := q.CatalogImageList(ctx)
		if err != nil {
			return fmt.Errorf("list pictures: %w", err)
		}
		supplied := make(map[string]Image, len(pictures))
		for _, p := range pictures {
			supplied[p.ProductID] = newImage(p.ContentType, p.Data)
		}
		snap, err = newCatalogSnapshot(st.Version, rows, supplied)
		return err
	})
	if err != nil {
		return nil, core.Internal(fmt.Errorf("catalog: load: %w", err))
	}
	return snap, nil
}

// newCatalogSnapshot decodes the stored products and gives each its picture
// (pictureFor, from the pictures supplied with an imported catalog), setting
// its image field to the picture's address.
func newCatalogSnapshot(version int64, rows [][]byte, supplied map[string]Image) (*catalogSnapshot, error) {
	snap := &catalogSnapshot{version: version, products: make([]Product, len(rows)), byID: make(map[string]int, len(rows))}
	for i, raw := range rows {
		if err := json.Unmarshal(raw, &snap.products[i]); err != nil {
			return nil, fmt.Errorf("decode product #%d: %w", i, err)
		}
		snap.byID[snap.products[i].ID] = i
	}
	NormalizeCatalog(snap.products)
	snap.images = make(map[string]Image, len(snap.products))
	for i := range snap.products {
		p := &snap.products[i]
		im := pictureFor(p.ID, supplied)
		snap.images[p.ID] = im
		p.Image = im.Path(p.ID)
	}
	snap.index = newSearchIndex(snap.products)
	return snap, nil
}

// PublicCatalog returns every product, retired ones included, in catalog
// order: the public GET /catalog. It needs no principal. Returns
// INTERNAL_ERROR when the catalog cannot be loaded.
func (a *Store) PublicCatalog(ctx context.Context) ([]Product, error) {
	return a.Products(ctx)
}
