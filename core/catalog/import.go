package catalog

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// The sources of a stored catalog.
const (
	catalogSourceEmbedded = "embedded"
	catalogSourceImport   = "import"
)

// SeedCatalog stores the catalog built into the binary unless an operator
// has imported one: it loads it into a database with no catalog, and
// replaces a previously seeded embedded catalog whose content differs (a new
// release), bumping the version. It is idempotent and safe to run
// concurrently: writers serialise on the catalog's state row. Returns
// INTERNAL_ERROR on database failure.
func SeedCatalog(ctx context.Context, pool *pgxpool.Pool) error {
	products, err := EmbeddedCatalog()
	if err != nil {
		return core.Internal(fmt.Errorf("embedded catalog: %w", err))
	}
	return seedCatalog(ctx, pool, products, digestOf(embeddedCatalogJSON))
}

// seedCatalog is SeedCatalog for a given catalog and its digest.
func seedCatalog(ctx context.Context, pool *pgxpool.Pool, products []Product, digest string) error {
	_, err := replaceCatalog(ctx, pool, products, nil, catalogSourceEmbedded, digest, true)
	return err
}

// ImportCatalog replaces the whole catalog with the JSON array of products
// read from r, in one transaction, and bumps the catalog version so that
// every process reloads it within CatalogMaxAge. It returns the number of
// products stored. A catalog that fails DecodeCatalog's checks returns
// VALIDATION_ERROR (or INVALID_JSON) naming the product and field, and
// changes nothing.
func ImportCatalog(ctx context.Context, pool *pgxpool.Pool, r io.Reader) (int, error) {
	return ImportCatalogWithImages(ctx, pool, r, nil)
}

// ImportCatalogWithImages is ImportCatalog with the pictures the operator
// supplies for its products (checkImageFiles: one per product, named by its
// ID, PNG, JPEG, WebP or a safe SVG by content, at most MaxImageBytes each),
// stored with the products in the same transaction. A product without a
// picture shows the built-in illustration of the shipped product with its
// ID, or else a gift box. A refused picture is VALIDATION_ERROR naming
// images, and changes nothing.
func ImportCatalogWithImages(ctx context.Context, pool *pgxpool.Pool, r io.Reader, files []ImageFile) (int, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return 0, core.Internal(fmt.Errorf("read catalog: %w", err))
	}
	products, err := DecodeCatalog(bytes.NewReader(raw))
	if err != nil {
		return 0, err
	}
	images, err := checkImageFiles(products, files)
	if err != nil {
		return 0, err
	}
	if _, err := replaceCatalog(ctx, pool, products, images, catalogSourceImport, digestOf(raw), false); err != nil {
		return 0, err
	}
	return len(products), nil
}

func digestOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// replaceCatalog stores products and their supplied pictures as the catalog
// and returns the new version. With seed set it keeps an imported catalog
// and an identical embedded one, returning their version unchanged.
func replaceCatalog(ctx context.Context, pool *pgxpool.Pool, products []Product, images map[string]Image, source, digest string, seed bool) (int64, error) {
	data, err := json.Marshal(products)
	if err != nil {
		return 0, core.Internal(fmt.Errorf("encode catalog: %w", err))
	}
	var version int64
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		q := db.New(tx)
		if err := q.CatalogStateEnsure(ctx); err != nil {
			return fmt.Errorf("ensure state: %w", err)
		}
		st, err := q.CatalogStateLock(ctx)
		if err != nil {
			return fmt.Errorf("lock state: %w", err)
		}
		if seed && st.Version > 0 && (st.Source == catalogSourceImport || st.Digest == digest) {
			version = st.Version
			return nil
		}
		if err := q.CatalogProductDeleteAll(ctx); err != nil {
			return fmt.Errorf("delete products: %w", err)
		}
		n, err := q.CatalogProductInsertMany(ctx, data)
		if err != nil {
			return fmt.Errorf("insert products: %w", err)
		}
		if n != int64(len(products)) {
			return fmt.Errorf("inserted %d of %d products", n, len(products))
		}
		if err := q.CatalogImageDeleteAll(ctx); err != nil {
			return fmt.Errorf("delete pictures: %w", err)
		}
		for id, im := range images {
			if err := q.CatalogImageInsert(ctx, db.CatalogImageInsertParams{ProductID: id, ContentType: im.ContentType, Data: im.Data}); err != nil {
				return fmt.Errorf("insert picture of %s: %w", id, err)
			}
		}
		version, err = q.CatalogStateBump(ctx, db.CatalogStateBumpParams{Source: source, Digest: digest, ProductCount: int32(len(products))})
		if err != nil {
			return fmt.Errorf("bump version: %w", err)
		}
		return nil
	})
	if err != nil {
		return 0, core.Internal(fmt.Errorf("catalog: replace: %w", err))
	}
	return version, nil
}
