package gift

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/sql/db"
)

// PriceReview is where a shipping-quote gift's final price stands once the
// service's staff confirmed it.
type PriceReview string

// The price reviews.
const (
	// PriceConfirmed: the final price stands; the gift may be ordered.
	PriceConfirmed PriceReview = "confirmed"
	// PriceBalanceMismatch: a balance-paid gift's final price differs from
	// what the balance paid; it waits for staff, and the balance is never
	// charged more.
	PriceBalanceMismatch PriceReview = "balance_mismatch"
)

// ConfirmFinalPrice records the final price (cents, delivery included) of
// shipping-quote gift sendID, as the service's staff confirm it (giftwell
// staff gift --final-price). A price equal to what the gift cost is
// confirmed and the gift may be ordered. A balance-paid gift whose amount
// changed is recorded as balance_mismatch and waits for staff: the balance
// is neither charged more nor credited, the gift cannot go into production
// (MoveGift refuses with BALANCE_MISMATCH), and ConfirmFinalPrice returns
// the gift with a BALANCE_MISMATCH error after the record is saved. Staff
// settle it by confirming the price paid, or by cancelling the gift (which
// credits what was paid). It returns VALIDATION_ERROR (finalPrice),
// NOT_FOUND (send), and INVALID_REQUEST_STATE (finalPrice) for a gift
// whose price needs no quote, one already confirmed at another price, one
// past production, and a card-paid gift whose amount changed (the card is
// charged only through checkout).
func (a *Service) ConfirmFinalPrice(ctx context.Context, sendID string, cents int64) (Gift, error) {
	if cents <= 0 || cents > MaxPriceCents {
		return Gift{}, core.Invalid("finalPrice", "must be 1-%d cents", MaxPriceCents)
	}
	var (
		g        Gift
		mismatch bool
	)
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		row, err := q.SendGetForUpdate(ctx, sendID)
		if core.IsNoRows(err) {
			return core.FieldError(core.CodeNotFound, "send", "no gift %s", sendID)
		}
		if err != nil {
			return core.Internal(err)
		}
		if err := a.checkQuotedPrice(ctx, row, cents); err != nil {
			return err
		}
		review := PriceConfirmed
		if cents != row.TotalCents {
			if FundedBy(row.FundedBy) != FundedByBalance {
				return core.FieldError(core.CodeInvalidRequestState, "finalPrice",
					"gift %s was paid %s by card; a changed price of a card-paid gift is settled through billing", row.ID, core.Dollars(row.TotalCents))
			}
			review, mismatch = PriceBalanceMismatch, true
		}
		now := a.Clock.Now()
		rv := string(review)
		if err := q.SendSetFinalPrice(ctx, db.SendSetFinalPriceParams{FinalPriceCents: &cents, PriceReview: &rv, UpdatedAt: now, ID: row.ID}); err != nil {
			return core.Internal(err)
		}
		row.FinalPriceCents, row.PriceReview, row.UpdatedAt = &cents, &rv, now
		g, err = FromRow(row)
		return err
	})
	if err != nil {
		return Gift{}, core.AsCoreError(err)
	}
	if mismatch {
		return g, core.Errorf(core.CodeBalanceMismatch,
			"gift %s was paid %s from the balance and its final price is %s; it waits for staff and the balance is never charged more",
			g.ID, core.Dollars(g.TotalCents), core.Dollars(cents))
	}
	return g, nil
}

// checkQuotedPrice says why gift row's final price cannot be set to cents,
// or nil: its gift must need a shipping quote, be before production, and
// not be confirmed at another price.
func (a *Service) checkQuotedPrice(ctx context.Context, row db.Send, cents int64) error {
	product, err := a.storedProduct(ctx, row.ProductID)
	if err != nil {
		return err
	}
	switch {
	case product == nil || !product.ShippingQuoteRequired:
		return core.FieldError(core.CodeInvalidRequestState, "finalPrice",
			"gift %s (%s) needs no shipping quote; its price %s is final", row.ID, row.ProductID, core.Dollars(row.TotalCents))
	case row.Status != string(SendAwaitingAddress) && row.Status != string(SendReady):
		return core.FieldError(core.CodeInvalidRequestState, "finalPrice",
			"gift %s is %s; a final price is confirmed before production", row.ID, row.Status)
	case row.PriceReview != nil && *row.PriceReview == string(PriceConfirmed) && row.FinalPriceCents != nil && *row.FinalPriceCents != cents:
		return core.FieldError(core.CodeInvalidRequestState, "finalPrice",
			"gift %s's final price was confirmed at %s", row.ID, core.Dollars(*row.FinalPriceCents))
	}
	return nil
}

// orderBlock says why gift row cannot go into production, or nil: a
// balance mismatch waits for staff, a gift whose product requiresPortrait
// needs its portrait approved (update_recipient_photo) first, and a live
// shipping-quote gift needs its final price confirmed first.
func (a *Service) orderBlock(ctx context.Context, row db.Send) error {
	if err := portraitBlock(row); err != nil {
		return err
	}
	if row.PriceReview != nil && *row.PriceReview == string(PriceBalanceMismatch) {
		return core.Errorf(core.CodeBalanceMismatch,
			"gift %s's final price differs from what the balance paid; it waits for staff: confirm the price paid or cancel it", row.ID)
	}
	if core.Mode(row.Mode) != core.ModeLive || row.PriceReview != nil {
		return nil
	}
	product, err := a.storedProduct(ctx, row.ProductID)
	if err != nil {
		return err
	}
	if product != nil && product.ShippingQuoteRequired {
		return core.FieldError(core.CodeInvalidRequestState, "status",
			"gift %s needs its final price confirmed (staff gift --final-price) before it is ordered", row.ID)
	}
	return nil
}

// portraitBlock says why gift row's portrait keeps it out of production,
// or nil: a gift with a portrait goes into production only once the
// portrait is approved, since production closes update_recipient_photo.
func portraitBlock(row db.Send) error {
	if row.PortraitState == "" || artwork.PortraitState(row.PortraitState) == artwork.PortraitApproved {
		return nil
	}
	return core.FieldError(core.CodeInvalidRequestState, "portrait",
		"gift %s needs a photo: its portrait is %s; approve one with update_recipient_photo before it is ordered", row.ID, row.PortraitState)
}
