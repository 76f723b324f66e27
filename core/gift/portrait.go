package gift

import (
	"context"

	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/sql/db"
)

// startPortrait gives a new gift whose product requiresPortrait its
// portrait (artwork.StartPortrait) in workspace workspaceID: awaiting_approval with the person's
// uploaded photo (asset), awaiting_photo otherwise (no photo yet, or a LinkedIn
// profile staff source a photo from). update_recipient_photo moves it on.
func (a *Service) startPortrait(ctx context.Context, q *db.Queries, workspaceID string, g *Gift, asset string) error {
	product, err := a.storedProduct(ctx, g.ProductID)
	if err != nil || product == nil || !product.RequiresPortrait {
		return err
	}
	g.Portrait, err = artwork.StartPortrait(ctx, q, workspaceID, g.ID, asset, g.CreatedAt)
	return err
}
