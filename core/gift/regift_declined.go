package gift

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// RegiftReason is the reason of the send.status_changed that a regift of a
// declined gift records.
const RegiftReason = "regifted after its recipient declined"

// CanRegiftDeclined says whether a gift in status, paid as fundedBy, whose
// address was confirmed or not (confirmed), may be regifted although its
// recipient declined it: only a card-paid gift declined before anyone
// confirmed an address, whose money is still held for it (a balance-paid
// gift was credited back as it was declined; a new gift is approved
// instead). docs/decisions/0119-money-after-a-decline.md.
func CanRegiftDeclined(status SendStatus, fundedBy FundedBy, confirmed bool) bool {
	return status == SendDeclined && fundedBy == FundedByCheckout && !confirmed
}

// ReopenDeclinedTx gives declined gift sendID back to its sender for a
// regift, inside the caller's transaction (core/giftlink's Regift): the
// one move back from an end. The gift, locked, must pass CanRegiftDeclined;
// it becomes awaiting_address again with its money, recording
// send.status_changed {from: declined, to: awaiting_address, reason:
// RegiftReason}. It returns the gift, NOT_FOUND (send), or
// INVALID_REQUEST_STATE naming sendId.
func (a *Service) ReopenDeclinedTx(ctx context.Context, tx pgx.Tx, sendID string) (Gift, error) {
	q := db.New(tx)
	row, err := q.SendGetForUpdate(ctx, sendID)
	if core.IsNoRows(err) {
		return Gift{}, core.FieldError(core.CodeNotFound, "send", "no gift %s", sendID)
	}
	if err != nil {
		return Gift{}, core.Internal(err)
	}
	if !CanRegiftDeclined(SendStatus(row.Status), FundedBy(row.FundedBy), row.AddressConfirmedAt != nil) {
		return Gift{}, core.FieldError(core.CodeInvalidRequestState, "sendId",
			"gift %s is %s and paid by %s; only a card-paid gift declined before its address was confirmed is regifted after a decline", row.ID, row.Status, row.FundedBy)
	}
	now := a.Clock.Now()
	if err := q.SendUpdateStatus(ctx, db.SendUpdateStatusParams{
		Status: string(SendAwaitingAddress), Carrier: row.Carrier, TrackingNumber: row.TrackingNumber,
		TrackingUrl: row.TrackingUrl, UpdatedAt: now, ID: row.ID,
	}); err != nil {
		return Gift{}, core.Internal(err)
	}
	if err := a.RecordEvent(ctx, tx, core.EventRecord{
		WorkspaceID: row.WorkspaceID, Mode: core.Mode(row.Mode), CampaignID: row.CampaignID, SendID: row.ID,
		RecipientID: row.RecipientID, Type: core.EventSendStatusChanged,
		Data: map[string]any{"from": SendDeclined, "to": SendAwaitingAddress, "reason": RegiftReason},
	}); err != nil {
		return Gift{}, err
	}
	row.Status, row.UpdatedAt = string(SendAwaitingAddress), now
	return FromRow(row)
}
