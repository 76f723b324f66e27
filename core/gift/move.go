package gift

import (
	"context"
	"net/url"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// GiftMove moves one gift: its new status and, when given, its tracking.
type GiftMove struct {
	SendID string
	// To is the status the gift becomes; its current status changes
	// nothing but the tracking given.
	To SendStatus
	// Reason says why, in the send.status_changed event (up to 500
	// characters).
	Reason string
	// Carrier, TrackingNumber and TrackingURL replace the gift's tracking
	// when not empty; only a shipped or delivered gift has tracking.
	Carrier        string
	TrackingNumber string
	TrackingURL    string
}

// The longest tracking values and reason a move accepts.
const (
	maxCarrier        = 100
	maxTrackingNumber = 200
	maxTrackingURL    = 2000
	maxMoveReason     = 500
)

// validate checks m's fields, naming the first bad one.
func (m GiftMove) validate() error {
	if m.SendID == "" {
		return core.Invalid("send", "is required")
	}
	if !m.To.Valid() {
		return core.Invalid("status", "must be one of awaiting_address, ready, in_production, shipped, delivered, declined, expired, cancelled")
	}
	for _, f := range []struct {
		name, v string
		max     int
	}{
		{"carrier", m.Carrier, maxCarrier}, {"trackingNumber", m.TrackingNumber, maxTrackingNumber},
		{"trackingUrl", m.TrackingURL, maxTrackingURL}, {"reason", m.Reason, maxMoveReason},
	} {
		if utf8.RuneCountInString(f.v) > f.max || core.HasControl(f.v) {
			return core.Invalid(f.name, "must be at most %d characters without control characters", f.max)
		}
		if f.name != "reason" && f.v != "" && !m.To.tracked() {
			return core.Invalid(f.name, "only a shipped or delivered gift has tracking; %s has none", m.To)
		}
	}
	if m.TrackingURL != "" {
		u, err := url.Parse(m.TrackingURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return core.Invalid("trackingUrl", "must be an http or https URL")
		}
	}
	return nil
}

// MoveGift moves the gift m.SendID forward, as the service's staff do
// (giftwell staff gift): the row is locked, the move must be one of
// giftMoves, and in the same transaction it records send.status_changed
// {from, to, reason}, send.order_changed {from, to} when the order state
// changes, send.tracking_changed when the tracking changes, and, for a
// balance-paid gift that is cancelled or declined (only possible before
// production), the ledger credit of its cost, and, for a test gift that
// becomes ready, in_production or shipped, the fulfilment simulator's next
// step (scheduleSimulation). Moving a gift to the status
// it has changes nothing but the tracking given, and credits nothing, so a
// repeated or raced move credits exactly once. It returns the gift, or
// VALIDATION_ERROR naming the bad field, NOT_FOUND (send) for an unknown
// gift, and INVALID_REQUEST_STATE (status) for a move the table refuses;
// a gift goes into production only once its price is settled (orderBlock:
// BALANCE_MISMATCH, or INVALID_REQUEST_STATE for a live shipping-quote gift
// whose final price is not confirmed).
func (a *Service) MoveGift(ctx context.Context, m GiftMove) (Gift, error) {
	if err := m.validate(); err != nil {
		return Gift{}, err
	}
	var g Gift
	err := a.InTxJobs(ctx, func(tx pgx.Tx) error {
		var err error
		g, err = a.moveGift(ctx, tx, m)
		return err
	})
	return g, core.AsCoreError(err)
}

func (a *Service) moveGift(ctx context.Context, tx pgx.Tx, m GiftMove) (Gift, error) {
	q := db.New(tx)
	row, err := q.SendGetForUpdate(ctx, m.SendID)
	if core.IsNoRows(err) {
		return Gift{}, core.FieldError(core.CodeNotFound, "send", "no gift %s", m.SendID)
	}
	if err != nil {
		return Gift{}, core.Internal(err)
	}
	from := SendStatus(row.Status)
	if m.To != from && !from.CanMove(m.To) {
		return Gift{}, core.FieldError(core.CodeInvalidRequestState, "status",
			"gift %s is %s and cannot become %s; it can become %s", row.ID, from, m.To, from.nextStatuses())
	}
	if m.To != from && m.To == SendInProduction {
		if err := a.orderBlock(ctx, row); err != nil {
			return Gift{}, err
		}
	}
	next := row
	next.Status = string(m.To)
	if m.Carrier != "" {
		next.Carrier = m.Carrier
	}
	if m.TrackingNumber != "" {
		next.TrackingNumber = m.TrackingNumber
	}
	if m.TrackingURL != "" {
		next.TrackingUrl = m.TrackingURL
	}
	statusChanged := from != m.To
	trackingChanged := next.Carrier != row.Carrier || next.TrackingNumber != row.TrackingNumber || next.TrackingUrl != row.TrackingUrl
	if !statusChanged && !trackingChanged {
		return FromRow(row)
	}
	now := a.Clock.Now()
	next.UpdatedAt = now
	if err := q.SendUpdateStatus(ctx, db.SendUpdateStatusParams{
		Status: next.Status, Carrier: next.Carrier, TrackingNumber: next.TrackingNumber,
		TrackingUrl: next.TrackingUrl, UpdatedAt: now, ID: row.ID,
	}); err != nil {
		return Gift{}, core.Internal(err)
	}
	ev := core.EventRecord{WorkspaceID: row.WorkspaceID, Mode: core.Mode(row.Mode), CampaignID: row.CampaignID,
		SendID: row.ID, RecipientID: row.RecipientID}
	record := func(t core.EventType, data map[string]any) error {
		ev.Type, ev.Data = t, data
		return a.RecordEvent(ctx, tx, ev)
	}
	if statusChanged {
		if err := record(core.EventSendStatusChanged, map[string]any{"from": from, "to": m.To, "reason": m.Reason}); err != nil {
			return Gift{}, err
		}
		if o, n := OrderStateOf(from), OrderStateOf(m.To); o != n {
			if err := record(core.EventSendOrderChanged, map[string]any{"from": o, "to": n}); err != nil {
				return Gift{}, err
			}
		}
	}
	if trackingChanged {
		// A field with no value is left out (a test gift has no tracking URL).
		data := map[string]any{}
		for k, v := range map[string]string{"carrier": next.Carrier, "trackingNumber": next.TrackingNumber, "trackingUrl": next.TrackingUrl} {
			if v != "" {
				data[k] = v
			}
		}
		if err := record(core.EventSendTrackingChanged, data); err != nil {
			return Gift{}, err
		}
	}
	if statusChanged && m.To.refunds() && FundedBy(row.FundedBy) == FundedByBalance && row.TotalCents > 0 {
		if err := a.refundGift(ctx, q, row, m.To); err != nil {
			return Gift{}, err
		}
	}
	if statusChanged {
		if err := a.scheduleSimulation(ctx, tx, row.ID, core.Mode(row.Mode), m.To); err != nil {
			return Gift{}, err
		}
	}
	return FromRow(next)
}

// refundGift credits a balance-paid gift's cost back to the balance it was
// paid from. A gift recorded as history (InsertSend) was never debited and
// gets nothing back.
func (a *Service) refundGift(ctx context.Context, q *db.Queries, row db.Send, to SendStatus) error {
	_, err := a.Ledger.Credit(ctx, q, row.WorkspaceID, core.Mode(row.Mode), row.TotalCents, row.ID, row.CampaignID,
		"gift "+row.ID+" "+string(to))
	if core.ErrorCode(err) == core.CodeNotFound {
		return nil
	}
	return err
}

// MoveGiftTx is MoveGift inside the caller's transaction, for a write of
// another subject that moves a gift with its own rows (a recipient
// confirming an address or declining through the gift link).
func (a *Service) MoveGiftTx(ctx context.Context, tx pgx.Tx, m GiftMove) (Gift, error) {
	if err := m.validate(); err != nil {
		return Gift{}, err
	}
	return a.moveGift(ctx, tx, m)
}
