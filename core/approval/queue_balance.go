package approval

import (
	"context"
	"encoding/json"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
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
	cents, low, err := a.balanceOn(ctx, db.New(a.DB), p.WorkspaceID, p.Mode)
	if err != nil {
		return ledger.Balance{}, err
	}
	return ledger.Balance{Cents: cents, Mode: p.Mode, TopUpURL: a.Config.BalanceURL(), LowBalance: low}, nil
}

// balanceOn reads the balance of workspaceID in mode through q (a pool or
// the caller's transaction) and whether it is low (lowBalance), in one
// statement: the balance, the active playbooks and the people waiting, read
// in one snapshot.
func (a *Service) balanceOn(ctx context.Context, q *db.Queries, workspaceID string, mode core.Mode) (cents int64, low bool, err error) {
	row, err := q.BalanceRead(ctx, db.BalanceReadParams{WorkspaceID: workspaceID, Mode: string(mode)})
	if err != nil {
		return 0, false, core.Internal(err)
	}
	var playbooks []playbookPrice
	var waitingGifts []waitingGift
	if err := json.Unmarshal(row.Playbooks, &playbooks); err != nil {
		return 0, false, core.Internal(err)
	}
	if err := json.Unmarshal(row.Waiting, &waitingGifts); err != nil {
		return 0, false, core.Internal(err)
	}
	need, err := a.mostNextGiftCents(ctx, playbooks)
	if err != nil {
		return 0, false, err
	}
	waiting, err := a.waitingCents(ctx, waitingGifts)
	if err != nil {
		return 0, false, err
	}
	return row.Cents, lowBalance(row.Cents, waiting, need), nil
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

// playbookPrice is an active playbook's gift and auto-approve rule (JSON
// null or absent: no rule), as BalanceRead lists them.
type playbookPrice struct {
	ProductID   string          `json:"productId"`
	AutoApprove json.RawMessage `json:"autoApprove"`
}

// mostNextGiftCents is the most one more gift from any of the active
// playbooks listed may cost: the gift's price (priceCents + shippingCents),
// or for a playbook with auto-approve on max(per-gift limit, price), since
// auto-approve may spend up to its limit. 0 with no active playbook.
func (a *Service) mostNextGiftCents(ctx context.Context, playbooks []playbookPrice) (int64, error) {
	var most int64
	for _, r := range playbooks {
		var need int64
		product, err := a.Campaigns.StoredProduct(ctx, r.ProductID)
		if err != nil {
			return 0, err
		}
		if product != nil {
			need = product.UnitCents()
		}
		if len(r.AutoApprove) > 0 && string(r.AutoApprove) != "null" {
			var rule campaign.AutoApprove
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

// waitingGift is how many people wait for one gift on the active
// playbooks, as BalanceRead lists them.
type waitingGift struct {
	ProductID string `json:"productId"`
	People    int64  `json:"people"`
}

// waitingCents is what the people in the approval queue would cost, which
// lowBalance sets aside first: the price (priceCents + shippingCents) of
// each waiting or scheduled person's gift on the active playbooks, over the
// waiting gifts listed (the same people Queue lists). A gift the catalog no
// longer has costs nothing (it cannot be approved).
func (a *Service) waitingCents(ctx context.Context, gifts []waitingGift) (int64, error) {
	var total int64
	for _, r := range gifts {
		product, err := a.Campaigns.StoredProduct(ctx, r.ProductID)
		if err != nil {
			return 0, err
		}
		if product != nil {
			total += product.UnitCents() * r.People
		}
	}
	return total, nil
}
