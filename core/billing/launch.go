package billing

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// LaunchBatch is how many paid roster positions one launch call prepares.
const LaunchBatch = 3

// LaunchResult is one launch call's work.
type LaunchResult struct {
	Sends      []gift.Gift   `json:"sends" jsonschema:"the gifts of the positions this call covered (made now or by an earlier call with the same cursor), fundedBy checkout"`
	Errors     []LaunchError `json:"errors" jsonschema:"positions that could not become gifts, with why; they are not retried"`
	NextCursor *int          `json:"nextCursor" jsonschema:"call again with this cursor; null when every paid position is prepared"`
}

// LaunchError is a paid position that could not become a gift.
type LaunchError struct {
	Position    int       `json:"position" jsonschema:"the paid position (0-based)"`
	RecipientID string    `json:"recipientId" jsonschema:"the person"`
	Code        core.Code `json:"code" jsonschema:"the error code"`
	Message     string    `json:"message" jsonschema:"what went wrong"`
}

// LaunchCampaign prepares up to three paid roster positions of campaign
// id's paid checkout from position cursor: each becomes one gift funded by
// the checkout (campaign.LaunchGift), with a gift link when the recipient
// confirms their address. It is resumable and idempotent: a position is
// prepared once, and a call with a cursor already covered returns the same
// gifts again. nextCursor is null only when every position is prepared:
// a call that reaches the last position while earlier ones still wait
// (a cursor that skipped them) answers the first of them. When every
// position is prepared the checkout is consumed and the campaign's edits
// unlock.
//
// It returns the codes of Authorize (ActActivate: a signed-in person),
// VALIDATION_ERROR naming cursor, INVALID_REQUEST_STATE (no paid
// checkout), or INTERNAL_ERROR.
func (a *Service) LaunchCampaign(ctx context.Context, p core.Principal, id string, cursor int) (LaunchResult, error) {
	if err := core.Authorize(p, core.ActActivate, a.LaunchURL(id)); err != nil {
		return LaunchResult{}, err
	}
	if cursor < 0 {
		return LaunchResult{}, core.Invalid("cursor", "must be 0 or more: the nextCursor of the previous call")
	}
	out := LaunchResult{Sends: []gift.Gift{}, Errors: []LaunchError{}}
	var sendIDs []string
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		chk, err := q.CheckoutLatestPaid(ctx, db.CheckoutLatestPaidParams{WorkspaceID: p.WorkspaceID, CampaignID: id})
		if core.IsNoRows(err) {
			return &core.Error{Code: core.CodeInvalidRequestState, URL: a.Config.ReviewURL(id),
				Message: "campaign " + core.Clip(id, 60) + " has no paid checkout: a signed-in owner or admin pays for it at the review page first (the payment page's return proves nothing; reconcile the checkout)"}
		}
		if err != nil {
			return core.Internal(err)
		}
		if cursor > int(chk.RecipientCount) {
			return core.Invalid("cursor", "must be at most %d, the checkout's paid positions", chk.RecipientCount)
		}
		items, err := q.CheckoutItemRange(ctx, db.CheckoutItemRangeParams{WorkspaceID: chk.WorkspaceID, CheckoutID: chk.ID, First: int32(cursor), RowLimit: LaunchBatch})
		if err != nil {
			return core.Internal(err)
		}
		for _, it := range items {
			if it.SendID != nil {
				sendIDs = append(sendIDs, *it.SendID)
				continue
			}
			if it.ErrorCode != "" {
				out.Errors = append(out.Errors, LaunchError{Position: int(it.Position), RecipientID: it.RecipientID, Code: core.Code(it.ErrorCode), Message: it.ErrorMessage})
				continue
			}
			sendID, lerr, err := a.launchPosition(ctx, tx, p, chk, it)
			if err != nil {
				return err
			}
			if lerr != nil {
				out.Errors = append(out.Errors, *lerr)
				continue
			}
			sendIDs = append(sendIDs, sendID)
		}
		next, remaining, err := launchProgress(ctx, q, chk, cursor+len(items))
		if err != nil {
			return err
		}
		if err := q.CheckoutSetLaunch(ctx, db.CheckoutSetLaunchParams{
			WorkspaceID: chk.WorkspaceID, ID: chk.ID, LaunchCursor: int32(next), RemainingCount: remaining,
		}); err != nil {
			return core.Internal(err)
		}
		if remaining > 0 {
			out.NextCursor = &next
		}
		return nil
	})
	if err != nil {
		return LaunchResult{}, core.AsCoreError(err)
	}
	for _, sid := range sendIDs {
		g, err := a.Gifts.Get(ctx, p, sid)
		if err != nil {
			return LaunchResult{}, err
		}
		out.Sends = append(out.Sends, g)
	}
	return out, nil
}

// launchProgress is where launch goes on after a call that covered the
// positions before after: after itself while positions remain past it,
// else the first position still unprepared (one a cursor skipped), else
// the checkout's recipientCount; with how many positions remain.
func launchProgress(ctx context.Context, q *db.Queries, chk db.Checkout, after int) (next int, remaining int32, err error) {
	left, err := q.CheckoutItemRemaining(ctx, db.CheckoutItemRemainingParams{WorkspaceID: chk.WorkspaceID, CheckoutID: chk.ID})
	switch {
	case err != nil:
		return 0, 0, core.Internal(err)
	case left.Remaining == 0:
		return int(chk.RecipientCount), 0, nil
	case after < int(chk.RecipientCount):
		return after, left.Remaining, nil
	}
	return int(left.FirstPending), left.Remaining, nil
}

// launchPosition makes the gift of paid position it in a savepoint of tx:
// a refusal (a *core.Error) rolls the savepoint back and is recorded on the
// position; any other error ends the launch call.
func (a *Service) launchPosition(ctx context.Context, tx pgx.Tx, p core.Principal, chk db.Checkout, it db.CheckoutItemRangeRow) (string, *LaunchError, error) {
	sp, err := tx.Begin(ctx)
	if err != nil {
		return "", nil, core.Internal(err)
	}
	g, gerr := a.Approvals.LaunchGift(ctx, sp, approval.LaunchParams{
		WorkspaceID: chk.WorkspaceID, CampaignID: chk.CampaignID, RecipientID: it.RecipientID, UnitCents: it.UnitCents,
		Prepaid: chk.Prepaid, ShippingStates: chk.ShippingStates, Mode: core.Mode(chk.Mode), ApprovedBy: p.UserID,
	})
	now := a.Clock.Now()
	var refused *core.Error
	if gerr != nil {
		_ = sp.Rollback(ctx)
		if !errors.As(gerr, &refused) || refused.Code == core.CodeInternal {
			return "", nil, gerr
		}
		if _, err := db.New(tx).CheckoutItemSetError(ctx, db.CheckoutItemSetErrorParams{
			WorkspaceID: chk.WorkspaceID, CheckoutID: chk.ID, Position: it.Position, ErrorCode: string(refused.Code), ErrorMessage: refused.Message, PreparedAt: &now,
		}); err != nil {
			return "", nil, core.Internal(err)
		}
		return "", &LaunchError{Position: int(it.Position), RecipientID: it.RecipientID, Code: refused.Code, Message: refused.Message}, nil
	}
	if err := sp.Commit(ctx); err != nil {
		return "", nil, core.Internal(err)
	}
	if _, err := db.New(tx).CheckoutItemSetSend(ctx, db.CheckoutItemSetSendParams{WorkspaceID: chk.WorkspaceID, CheckoutID: chk.ID, Position: it.Position, SendID: &g.ID, PreparedAt: &now}); err != nil {
		return "", nil, core.Internal(err)
	}
	return g.ID, nil, nil
}
