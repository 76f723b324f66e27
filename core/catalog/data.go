package catalog

import (
	"bytes"
	_ "embed"
	"sync"
)

// embeddedCatalogJSON is the catalog built into the binary: a JSON array of
// products. SeedCatalog loads it into a database that has no imported catalog.
//
//go:embed products.json
var embeddedCatalogJSON []byte

var embedded = sync.OnceValues(func() ([]Product, error) {
	return DecodeCatalog(bytes.NewReader(embeddedCatalogJSON))
})

// EmbeddedCatalog returns the catalog built into the binary, decoded and
// validated. The slice is shared; callers must not change it.
func EmbeddedCatalog() ([]Product, error) { return embedded() }
