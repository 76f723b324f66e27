package billing_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/catalog"
)

// A checkout bought at the prepaid offer fixes the offer's shipping states
// when it is bought: the catalog dropping the offer between payment and
// launch does not let the launched gifts ship anywhere.
func TestPrepaidCheckoutKeepsTheStatesItWasBoughtWith(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 0)
	app := f.env.App
	f.batch = f.env.NewBatchOf(t, f.owner, "olive-oil-tasting-set", 2)
	product, err := app.Catalog.Get(ctx, "olive-oil-tasting-set")
	require.NoError(t, err)
	require.NotNil(t, product.PrepaidOffer)
	bought := product.PrepaidOffer.ShippingStates
	c := f.checkout(t, "prepaid-states-key")
	_, err = app.Billing.PaySandboxCheckout(ctx, f.owner, sessionOf(t, f, c.ID))
	require.NoError(t, err)

	products, err := catalog.EmbeddedCatalog()
	require.NoError(t, err)
	for i := range products {
		if products[i].ID == product.ID {
			products[i].PrepaidOffer = nil
		}
	}
	raw, err := json.Marshal(products)
	require.NoError(t, err)
	_, err = catalog.ImportCatalog(ctx, app.DB, bytes.NewReader(raw))
	require.NoError(t, err)
	require.NoError(t, app.Catalog.Refresh(ctx))
	now, err := app.Catalog.Get(ctx, product.ID)
	require.NoError(t, err)
	require.Nil(t, now.PrepaidOffer, "the catalog dropped the offer")

	step, err := app.Billing.LaunchCampaign(ctx, f.owner, f.batch.ID, 0)
	require.NoError(t, err)
	require.Len(t, step.Sends, 2)
	for _, g := range step.Sends {
		require.Equal(t, bought, g.ShippingStates, "the states the checkout was bought with")
	}
}
