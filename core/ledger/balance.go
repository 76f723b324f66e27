package ledger

import (
	"context"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// Bounds of the balance reads (see docs/decisions/).
const (
	// DefaultLedgerLimit is how many ledger entries the faces ask for when
	// the caller names no limit.
	DefaultLedgerLimit = 50
	// MaxLedgerLimit is the most ledger entries one Ledger call returns.
	MaxLedgerLimit = 200
)

// Balance is a workspace's prepaid balance in its current mode (get_balance).
type Balance struct {
	Cents      int64     `json:"cents" jsonschema:"the balance in USD cents; never below zero"`
	Mode       core.Mode `json:"mode" jsonschema:"the workspace mode the balance belongs to; test funds never pay for live gifts" schema:"enum=test|live"`
	LowBalance bool      `json:"lowBalance" jsonschema:"true when the balance cannot cover the people waiting plus one more gift from every active playbook"`
	TopUpURL   string    `json:"topUpUrl" jsonschema:"the page where a signed-in owner or admin adds funds; hand it to a person"`
}

// LedgerKind is the kind of a ledger entry.
type LedgerKind string

// The ledger entry kinds.
const (
	// LedgerTopup is a completed top-up (positive).
	LedgerTopup LedgerKind = "topup"
	// LedgerDebit pays for one gift (negative); one per gift.
	LedgerDebit LedgerKind = "debit"
	// LedgerCredit gives a gift's cost back, e.g. on cancellation (positive).
	LedgerCredit LedgerKind = "credit"
	// LedgerAdjustment is a correction by staff (either sign).
	LedgerAdjustment LedgerKind = "adjustment"
)

// LedgerEntry is one line of a balance's ledger. Cents is signed: the
// balance is the sum of its entries.
type LedgerEntry struct {
	ID         string     `json:"id" jsonschema:"the entry ID (led_...)"`
	Kind       LedgerKind `json:"kind" jsonschema:"topup, debit (a gift paid), credit (a gift's cost given back) or adjustment" schema:"enum=topup|debit|credit|adjustment"`
	Cents      int64      `json:"cents" jsonschema:"the signed amount in USD cents: positive adds to the balance, negative takes from it"`
	SendID     *string    `json:"sendId" jsonschema:"the gift a debit or credit is for, or null"`
	CampaignID *string    `json:"campaignId" jsonschema:"the campaign of the gift, or null"`
	Note       string     `json:"note" jsonschema:"what the entry is for"`
	CreatedAt  time.Time  `json:"createdAt" jsonschema:"when the entry was written"`
}

// Ledger returns the newest limit entries (1-200; faces default to 50) of the
// Ledger of p's workspace in its current mode, newest first. It returns the
// codes of Authorize (ActReadQueueAndBalance), VALIDATION_ERROR naming limit,
// or INTERNAL_ERROR.
func (a *Service) Ledger(ctx context.Context, p core.Principal, limit int) ([]LedgerEntry, error) {
	if err := core.Authorize(p, core.ActReadQueueAndBalance, a.Config.BalanceURL()); err != nil {
		return nil, err
	}
	if limit < 1 || limit > MaxLedgerLimit {
		return nil, core.Invalid("limit", "must be between 1 and %d", MaxLedgerLimit)
	}
	rows, err := db.New(a.DB).LedgerEntryList(ctx, db.LedgerEntryListParams{
		WorkspaceID: p.WorkspaceID, Mode: string(p.Mode), RowLimit: int32(limit),
	})
	if err != nil {
		return nil, core.Internal(err)
	}
	out := make([]LedgerEntry, 0, len(rows))
	for _, r := range rows {
		out = append(out, LedgerEntry{
			ID: r.ID, Kind: LedgerKind(r.Kind), Cents: r.Cents, SendID: r.SendID, CampaignID: r.CampaignID,
			Note: r.Note, CreatedAt: r.CreatedAt.UTC(),
		})
	}
	return out, nil
}
