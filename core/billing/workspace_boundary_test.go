package billing_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// Billing's reads and writes name the workspace: another workspace's owner
// finds none of a checkout's items, cannot pay its sandbox session, cancel
// or reconcile it, and the queries themselves return nothing for the
// wrong workspace.
func TestCheckoutStaysInsideItsWorkspace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 2)
	app := f.env.App
	c := f.checkout(t, "boundary-key-1")
	session := sessionOf(t, f, c.ID)

	other := apptest.NewWorkspace(t, app, apptest.WorkspaceOptions{})
	_, stranger := f.env.SignIn(t, other.OwnerEmail)
	_, err := app.Billing.CheckoutItems(ctx, stranger, c.ID)
	apptest.RequireCode(t, err, core.CodeNotFound)
	_, err = app.Billing.PaySandboxCheckout(ctx, stranger, session)
	apptest.RequireCode(t, err, core.CodeNotFound)
	_, err = app.Billing.CancelCampaignCheckout(ctx, stranger, c.ID)
	apptest.RequireCode(t, err, core.CodeNotFound)
	_, err = app.Billing.ReconcileCampaignCheckout(ctx, stranger, c.ID)
	apptest.RequireCode(t, err, core.CodeNotFound)

	q := db.New(app.DB)
	items, err := q.CheckoutItemList(ctx, db.CheckoutItemListParams{WorkspaceID: other.WorkspaceID, CheckoutID: c.ID})
	require.NoError(t, err)
	require.Empty(t, items)
	items, err = q.CheckoutItemList(ctx, db.CheckoutItemListParams{WorkspaceID: f.env.WorkspaceID, CheckoutID: c.ID})
	require.NoError(t, err)
	require.Len(t, items, 2)
	_, err = q.CheckoutInProgress(ctx, db.CheckoutInProgressParams{WorkspaceID: other.WorkspaceID, CampaignID: f.batch.ID})
	require.True(t, core.IsNoRows(err))
	_, err = q.CheckoutGetBySessionInWorkspaceForUpdate(ctx, db.CheckoutGetBySessionInWorkspaceForUpdateParams{WorkspaceID: other.WorkspaceID, ProcessorSessionID: &session})
	require.True(t, core.IsNoRows(err))

	paid, err := app.Billing.PaySandboxCheckout(ctx, f.owner, session)
	require.NoError(t, err)
	require.Equal(t, c.ID, paid.ID)
}
