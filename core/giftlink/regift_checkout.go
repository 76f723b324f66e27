package giftlink

import (
	"context"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/sql/db"
)

// noCheckoutInProgress refuses a regift while campaign campaignID (of
// workspaceID) has a
// checkout in progress (creating, open or paid and not yet launched, and
// an unpaid one not past its time): CHECKOUT_LOCKED, retry later.
func noCheckoutInProgress(ctx context.Context, q *db.Queries, workspaceID, campaignID string, now time.Time) error {
	id, state, busy, err := campaign.CheckoutInProgress(ctx, q, workspaceID, campaignID, now)
	if err != nil || !busy {
		return err
	}
	return core.Errorf(core.CodeCheckoutLocked, "campaign %s has checkout %s %s: regift waits until it is cancelled or expires, or until launch has prepared its paid gifts", campaignID, id, state)
}

// checkoutBusy is noCheckoutInProgress split for a view: the CHECKOUT_LOCKED
// refusal as a value (nil when no checkout is in progress), and any other
// error to return.
func checkoutBusy(ctx context.Context, q *db.Queries, workspaceID, campaignID string, now time.Time) (busy, err error) {
	err = noCheckoutInProgress(ctx, q, workspaceID, campaignID, now)
	if core.ErrorCode(err) == core.CodeCheckoutLocked {
		return err, nil
	}
	return nil, err
}
