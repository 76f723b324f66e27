package web

import (
	"context"

	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/catalog"
)

// queueProducts looks up the gift of each waiting person once per product,
// for the queue page's pictures; a product the catalog dropped is left out.
func (h *handler) queueProducts(ctx context.Context, items []approval.QueueItem) (map[string]*catalog.Product, error) {
	products := map[string]*catalog.Product{}
	for _, it := range items {
		if _, seen := products[it.ProductID]; seen {
			continue
		}
		p, err := h.app.Catalog.Lookup(ctx, it.ProductID)
		if err != nil {
			return nil, err
		}
		products[it.ProductID] = p
	}
	return products, nil
}

// Product is the gift with id, or nil when the catalog no longer has it.
func (d queueData) Product(id string) *catalog.Product { return d.Products[id] }
