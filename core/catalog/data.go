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
	products, err := DecodeCatalog(bytes.NewReader(embeddedCatalogJSON))
	if err != nil {
		return nil, err
	}
	for i := range products {
		products[i].Image = pictureFor(products[i].ID, nil).Path(products[i].ID)
	}
	return products, nil
})

// EmbeddedCatalog returns the catalog built into the binary, decoded and
// validated, each product's image field the address of its built-in
// illustration (as the Store serves it). The slice is shared; callers must
// not change it.
func EmbeddedCatalog() ([]Product, error) { return embedded() }
