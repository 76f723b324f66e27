package tracking

import (
	"context"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// AddressWait counts the workspace's gifts that wait for their recipient's
// address.
type AddressWait struct {
	// Awaiting is how many gifts are awaiting_address.
	Awaiting int
	// ExpiringSoon is how many of them have an active link that stops
	// working within the window asked for.
	ExpiringSoon int
}

// AwaitingAddress counts p's workspace's gifts awaiting their recipient's
// address, and those whose active link ends within the next within, for
// the web app's home page. It returns the codes of Authorize (ActRead).
func (a *Service) AwaitingAddress(ctx context.Context, p core.Principal, within time.Duration) (AddressWait, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return AddressWait{}, err
	}
	now := a.Clock.Now()
	r, err := db.New(a.DB).GiftAwaitingAddressCounts(ctx, db.GiftAwaitingAddressCountsParams{
		WorkspaceID: p.WorkspaceID, Now: now, Soon: now.Add(within),
	})
	if err != nil {
		return AddressWait{}, core.Internal(err)
	}
	return AddressWait{Awaiting: int(r.Awaiting), ExpiringSoon: int(r.ExpiringSoon)}, nil
}
