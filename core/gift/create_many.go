package gift

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/sql/db"
)

// CreateMany creates the balance-funded gifts ns of one workspace and mode
// inside the caller's transaction, which has locked that balance and read
// it as balance: one debit entry per gift and one update of the balance
// for all of them (ledger.DebitMany: 402 INSUFFICIENT_BALANCE when the sum
// is more than balance), then each gift as Create stores it. Either all of
// it lands or none; the gifts' events are recorded together, in order
// (core.RecordEvents). It is a group commit's write (approval.decideGroup).
func (a *Service) CreateMany(ctx context.Context, tx pgx.Tx, balance int64, ns []New) ([]Gift, error) {
	if len(ns) == 0 {
		return nil, nil
	}
	gifts := make([]Gift, len(ns))
	debits := make([]ledger.GiftDebit, len(ns))
	for i, n := range ns {
		g := a.giftOf(n)
		if g.FundedBy != FundedByBalance || n.RecordOnly || n.WorkspaceID != ns[0].WorkspaceID || g.Mode != gifts[0].Mode && i > 0 {
			return nil, core.Internal(fmt.Errorf("create many: gift %d is not paid from the group's balance", i))
		}
		gifts[i] = g
		debits[i] = ledger.GiftDebit{SendID: g.ID, CampaignID: n.CampaignID, Cents: g.TotalCents}
	}
	if err := a.Ledger.DebitMany(ctx, db.New(tx), ns[0].WorkspaceID, gifts[0].Mode, balance, debits); err != nil {
		return nil, err
	}
	var events []core.EventRecord
	for i, n := range ns {
		g, err := a.store(ctx, tx, n, gifts[i], &events)
		if err != nil {
			return nil, err
		}
		gifts[i] = g
	}
	if err := a.RecordEvents(ctx, tx, events); err != nil {
		return nil, err
	}
	return gifts, nil
}
