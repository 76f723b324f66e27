package approval

import (
	"context"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/sql/db"
)

// explainWaiting fills what a waiting add's answer needs for the next step,
// on q inside the add's transaction: the person's blockers as the queue
// shows them (queueOf, so the balance and the limits are shared with the
// people ahead, exactly as list_queue and the queue page compute them), and
// topUpUrl when the balance is low by get_balance's rule (lowBalance) or
// the person's blockers include adding funds.
func (a *Service) explainWaiting(ctx context.Context, q *db.Queries, p core.Principal, res *AddPersonResult) error {
	mode := campaign.ModeOf(p)
	entries, err := a.queueOf(ctx, q, p.WorkspaceID, mode)
	if err != nil {
		return err
	}
	res.Blockers = []string{}
	funds := false
	for _, e := range entries {
		if e.item.RecipientID == res.RecipientID {
			res.Blockers, res.Why = e.item.Blockers, e.item.Why
			for _, b := range e.item.Blockers {
				funds = funds || b == campaign.ReasonLowBalance.Blocker()
			}
			break
		}
	}
	_, low, err := a.balanceOn(ctx, q, p.WorkspaceID, mode)
	if err != nil {
		return err
	}
	if funds || low {
		res.TopUpURL = a.Config.BalanceURL()
	}
	return nil
}
