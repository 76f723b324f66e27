package ledger

import (
	"context"
	"fmt"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// GiftDebit is one gift's payment in a DebitMany.
type GiftDebit struct {
	SendID     string
	CampaignID string
	Cents      int64 // what the gift costs, > 0
}

// DebitMany pays for many gifts from the balance of workspace in mode at
// once, inside the caller's transaction, which has locked the balance
// (LockBalance) and read it as balance: one debit entry per gift in the
// order given and the balance lowered by their sum, in one statement, so
// that the balance still equals the sum of its ledger. It refuses the whole group
// with 402 INSUFFICIENT_BALANCE when balance cannot cover the sum (the
// caller decides gift by gift first, so this is a guard), and with
// INVALID_REQUEST_STATE when a gift is already paid (the unique index
// ledger_entries_debit_send).
func (a *Service) DebitMany(ctx context.Context, q *db.Queries, workspaceID string, mode core.Mode, balance int64, debits []GiftDebit) error {
	if len(debits) == 0 {
		return nil
	}
	p := db.LedgerDebitManyParams{WorkspaceID: workspaceID, Mode: string(mode), CreatedAt: a.Clock.Now()}
	var total int64
	for _, d := range debits {
		if d.Cents <= 0 || d.SendID == "" {
			return core.Internal(fmt.Errorf("debit: %d cents for send %q", d.Cents, d.SendID))
		}
		total += d.Cents
		p.Ids = append(p.Ids, core.NewID(core.PrefixLedger))
		p.Cents = append(p.Cents, -d.Cents)
		p.SendIds = append(p.SendIds, d.SendID)
		p.CampaignIds = append(p.CampaignIds, d.CampaignID)
		p.Notes = append(p.Notes, "gift "+d.SendID)
	}
	if balance < total {
		return a.insufficient(mode, balance, total, len(debits))
	}
	if err := q.LedgerDebitMany(ctx, p); err != nil {
		if name, ok := core.ViolatedUnique(err); ok && name == "ledger_entries_debit_send" {
			return core.Errorf(core.CodeInvalidRequestState, "a gift of the group is already paid")
		}
		return core.Internal(err)
	}
	return nil
}
