package billing

import (
	"context"
	"fmt"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/sql/db"
)

// ReconcileTopup asks the payment processor about top-up session sessionID
// of p's workspace (no transaction open meanwhile) and applies its word: a
// paid session credits the balance once (Ledger.CompleteTopup), an expired
// one expires the top-up. The balance page calls it when the payer comes
// back: the return itself proves nothing. It returns the top-up's state.
//
// It returns the codes of Authorize (ActPay), NOT_FOUND (no such top-up in
// the workspace), or INTERNAL_ERROR (also when the processor cannot be
// reached).
func (a *Service) ReconcileTopup(ctx context.Context, p core.Principal, sessionID string) (ledger.TopupState, error) {
	if err := core.Authorize(p, core.ActPay, a.Config.BalanceURL()); err != nil {
		return "", err
	}
	q := db.New(a.DB)
	t, err := q.TopupGetBySession(ctx, sessionID)
	if core.IsNoRows(err) || (err == nil && t.WorkspaceID != p.WorkspaceID) {
		return "", core.Errorf(core.CodeNotFound, "top-up session %s does not exist in this workspace", core.Clip(sessionID, 60))
	}
	if err != nil {
		return "", core.Internal(err)
	}
	proc := a.processorOf(t.Processor)
	if ledger.TopupState(t.State) != ledger.TopupCreated || proc == nil {
		return ledger.TopupState(t.State), nil
	}
	res, err := proc.RetrieveSession(ctx, sessionID)
	if err != nil {
		return "", core.Internal(fmt.Errorf("reconcile top-up %s: %w", t.ID, err))
	}
	switch res.State {
	case ledger.SessionPaid:
		if err := a.Ledger.CompleteTopup(ctx, sessionID); err != nil {
			return "", err
		}
		return ledger.TopupCompleted, nil
	case ledger.SessionExpired:
		if err := a.Ledger.ExpireTopup(ctx, sessionID); err != nil {
			return "", err
		}
		return ledger.TopupExpired, nil
	}
	return ledger.TopupCreated, nil
}
