package gift

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// RefundGiftTx ends gift sendID for a refund staff approved, inside the
// caller's transaction (core/giftlink's refund decision): an unused gift
// awaiting its address is cancelled (MoveGift's path, which credits a
// balance-paid gift's cost back), and an expired balance-paid gift, which
// no move credits, is credited directly. The ledger never credits a gift
// more than its debit, so a repeated call credits nothing more
// (INVALID_REQUEST_STATE). A gift cancelled or declined meanwhile changes
// nothing (its move credited a balance-paid gift already). A card-paid gift
// moves but is never credited here: its money goes back to the card. It
// returns the gift, NOT_FOUND (send), or INVALID_REQUEST_STATE (status) for
// a gift that went on to be fulfilled.
func (a *Service) RefundGiftTx(ctx context.Context, tx pgx.Tx, sendID, reason string) (Gift, error) {
	q := db.New(tx)
	row, err := q.SendGetForUpdate(ctx, sendID)
	if core.IsNoRows(err) {
		return Gift{}, core.FieldError(core.CodeNotFound, "send", "no gift %s", sendID)
	}
	if err != nil {
		return Gift{}, core.Internal(err)
	}
	if err := refundable(row); err != nil {
		return Gift{}, err
	}
	switch SendStatus(row.Status) {
	case SendAwaitingAddress:
		return a.moveGift(ctx, tx, GiftMove{SendID: sendID, To: SendCancelled, Reason: reason})
	case SendExpired:
		if FundedBy(row.FundedBy) == FundedByBalance && row.TotalCents > 0 {
			if err := a.refundGift(ctx, q, row, SendExpired); err != nil {
				return Gift{}, err
			}
		}
		return FromRow(row)
	case SendCancelled, SendDeclined:
		// Ended meanwhile: its move already credited a balance-paid gift.
	}
	return FromRow(row)
}

// RefundableTx locks gift sendID in the caller's transaction and says
// whether a refund approved for it may still go ahead: nil for an unused
// gift (awaiting_address or expired) or one that ended unfulfilled
// (cancelled or declined), else INVALID_REQUEST_STATE (status) for a gift
// that went on to be fulfilled; NOT_FOUND (send). A card refund checks it
// before the processor is called.
func (a *Service) RefundableTx(ctx context.Context, tx pgx.Tx, sendID string) error {
	row, err := db.New(tx).SendGetForUpdate(ctx, sendID)
	if core.IsNoRows(err) {
		return core.FieldError(core.CodeNotFound, "send", "no gift %s", sendID)
	}
	if err != nil {
		return core.Internal(err)
	}
	return refundable(row)
}

// refundable is RefundableTx's rule for gift row.
func refundable(row db.Send) error {
	switch SendStatus(row.Status) {
	case SendAwaitingAddress, SendExpired, SendCancelled, SendDeclined:
		return nil
	}
	return core.FieldError(core.CodeInvalidRequestState, "status",
		"gift %s is %s; only an unused gift (awaiting_address or expired) is refunded", row.ID, row.Status)
}
