package campaign

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// ActivatePaid turns a draft or paused campaign on once its checkout is
// paid, inside the caller's transaction; its policyVersion stays.
func (a *Service) ActivatePaid(ctx context.Context, tx pgx.Tx, campaignID string) error {
	if err := db.New(tx).CampaignActivatePaid(ctx, db.CampaignActivatePaidParams{ID: campaignID, UpdatedAt: a.Clock.Now()}); err != nil {
		return core.Internal(err)
	}
	return nil
}

// PreviewCheckout is a campaign's newest checkout as its preview shows it.
type PreviewCheckout struct {
	ID          string `json:"id" jsonschema:"the checkout (chk_...)"`
	State       string `json:"state" jsonschema:"creating, open, paid, consumed, expired or cancelled" schema:"enum=creating|open|paid|consumed|expired|cancelled"`
	AmountCents int64  `json:"amountCents" jsonschema:"its total in USD cents"`
	URL         string `json:"url,omitempty" jsonschema:"the payment page while open, for a signed-in owner or admin"`
}

// previewCheckout reads campaign campaignID's newest checkout (of
// workspaceID), or nil; an open one whose time is up reads as expired.
func (a *Service) previewCheckout(ctx context.Context, q *db.Queries, workspaceID, campaignID string) (*PreviewCheckout, error) {
	row, err := q.CheckoutLatestForCampaign(ctx, db.CheckoutLatestForCampaignParams{WorkspaceID: workspaceID, CampaignID: campaignID})
	if core.IsNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, core.Internal(err)
	}
	out := &PreviewCheckout{ID: row.ID, State: row.State, AmountCents: row.AmountCents}
	switch {
	case CheckoutLapsed(row.State, row.ExpiresAt, a.Clock.Now()):
		out.State = "expired"
	case row.State == "open":
		out.URL = row.Url
	}
	return out, nil
}

// CheckoutLapsed says whether a checkout in state (its stored state) whose
// time ends at expiresAt is unpaid and past its time at now: it reads as
// expired, and locks nothing, before the sweep or the processor closes it.
func CheckoutLapsed(state string, expiresAt, now time.Time) bool {
	return (state == "open" || state == "creating") && !expiresAt.After(now)
}

// CheckoutInProgress reads campaign campaignID's checkout in progress
// through q: one creating, open or paid (not yet launched), an unpaid one
// not past its time at now (CheckoutLapsed). ok is false when there is
// none; id and state name it for a CHECKOUT_LOCKED refusal.
func CheckoutInProgress(ctx context.Context, q *db.Queries, workspaceID, campaignID string, now time.Time) (id, state string, ok bool, err error) {
	row, err := q.CheckoutInProgress(ctx, db.CheckoutInProgressParams{WorkspaceID: workspaceID, CampaignID: campaignID})
	if core.IsNoRows(err) {
		return "", "", false, nil
	}
	if err != nil {
		return "", "", false, core.Internal(err)
	}
	if CheckoutLapsed(row.State, row.ExpiresAt, now) {
		return "", "", false, nil
	}
	return row.ID, row.State, true, nil
}
