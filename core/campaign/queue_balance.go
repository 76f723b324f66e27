package campaign

import (
	"context"
	"encoding/json"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/sql/db"
)

// Balance returns the balance of p's workspace in its current mode, with
// lowBalance and the top-up page. It returns the codes of Authorize
// (ActReadQueueAndBalance: anyone, key or connection with gifts:read) or
// INTERNAL_ERROR.
func (a *Service) Balance(ctx context.Context, p core.Principal) (ledger.Balance, error) {
	if err := core.Authorize(p, core.ActReadQueueAndBalance, a.Config.BalanceURL()); err != nil {
		return ledger.Balance{}, err
	}
	// One statement: the balance, the active playbooks and the people
	// waiting, read in one snapshot.
	row, err := db.New(a.DB).BalanceRead(ctx, db.BalanceReadParams{WorkspaceID: p.WorkspaceID, Mode: string(p.Mode)})
	if err != nil {
		return ledger.Balance{}, core.Internal(err)
	}
	var playbooks []playbookPrice
	var waitingGifts []waitingGift
	if err := json.Unmarshal(row.Playbooks, &playbooks); err != nil {
		return ledger.Balance{}, core.Internal(err)
	}
	if err := json.Unmarshal(row.Waiting, &waitingGifts); err != nil {
		return ledger.Balance{}, core.Internal(err)
	}
	need, err := a.mostNextGiftCents(ctx, playbooks)
	if err != nil {
		return ledger.Balance{}, err
	}
	waiting, err := a.waitingCents(ctx, waitingGifts)
	if err != nil {
		return ledger.Balance{}, err
	}
	return ledger.Balance{
		Cents: row.Cents, Mode: p.Mode, TopUpURL: a.Config.BalanceURL(),
		LowBalance: lowBalance(row.Cents, waiting, need),
	}, nil
}

// lowBalance is the spec's rule: the balance, after paying for everyone
// waiting, cannot cover one more gift from some active playbook. With no
// active playbook and nobody waiting nothing needs funds, so it is false.
func lowBalance(cents, waitingCents, nextGiftCents int64) bool {
	if nextGiftCents == 0 && waitingCents == 0 {
		return false
	}
	return cents-waitingCents < nextGiftCents
}

// nextGiftCents is the most one more gift from any active playbook of the
// workspace may cost: the gift's price (priceCents + shippingCents), or for
// a playbook with auto-approve on max(per-gift limit, price), since
// auto-approve may spend up to its limit. 0 with no active playbook.
func (a *Service) nextGiftCents(ctx context.Context, q *db.Queries, workspaceID string) (int64, error) {
	rows, err := q.BalancePlaybookPrices(ctx, workspaceID)
	if err != nil {
		return 0, core.Internal(err)
	}
	playbooks := make([]playbookPrice, len(rows))
	for i, r := range rows {
		playbooks[i] = playbookPrice{ProductID: r.ProductID, AutoApprove: r.AutoApprove}
	}
	return a.mostNextGiftCents(ctx, playbooks)
}

// playbookPrice is an active playbook's gift and auto-approve rule (JSON
// null or absent: no rule), as BalanceRead lists them.
type playbookPrice struct {
	ProductID   string          `json:"productId"`
	AutoApprove json.RawMessage `json:"autoApprove"`
}

// mostNextGiftCents is nextGiftCents over the active playbooks listed.
func (a *Service) mostNextGiftCents(ctx context.Context, playbooks []playbookPrice) (int64, error) {
	var most int64
	for _, r := range playbooks {
		var need int64
		product, err := a.storedProduct(ctx, r.ProductID)
		if err != nil {
			return 0, err
		}
		if product != nil {
			need = product.UnitCents()
		}
		if len(r.AutoApprove) > 0 && string(r.AutoApprove) != "null" {
			var rule AutoApprove
			if err := json.Unmarshal(r.AutoApprove, &rule); err != nil {
				return 0, core.Internal(err)
			}
			if rule.Enabled {
				need = max(need, rule.PerGiftMaxCents)
			}
		}
		most = max(most, need)
	}
	return most, nil
}

// waitingTotalCents is what the people in the approval queue of the
// workspace would cost, which lowBalance sets aside first: the price
// (priceCents + shippingCents) of each waiting or scheduled person's gift on
// the workspace's active playbooks, the same people Queue lists. A gift the
// catalog no longer has costs nothing (it cannot be approved). mode is the
// balance's: the queue is always the workspace's current one.
func (a *Service) waitingTotalCents(ctx context.Context, q *db.Queries, workspaceID string, _ core.Mode) (int64, error) {
	rows, err := q.QueueProductCounts(ctx, workspaceID)
	if err != nil {
		return 0, core.Internal(err)
	}
	gifts := make([]waitingGift, len(rows))
	for i, r := range rows {
		gifts[i] = waitingGift{ProductID: r.ProductID, People: r.People}
	}
	return a.waitingCents(ctx, gifts)
}

// waitingGift is how many people wait for one gift on the active
// playbooks, as BalanceRead lists them.
type waitingGift struct {
	ProductID string `json:"productId"`
	People    int64  `json:"people"`
}

// waitingCents is waitingTotalCents over the waiting gifts listed.
func (a *Service) waitingCents(ctx context.Context, gifts []waitingGift) (int64, error) {
	var total int64
	for _, r := range gifts {
		product, err := a.storedProduct(ctx, r.ProductID)
		if err != nil {
			return 0, err
		}
		if product != nil {
			total += product.UnitCents() * r.People
		}
	}
	return total, nil
}
