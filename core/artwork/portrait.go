package artwork

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// PortraitState is where a gift's portrait stands.
type PortraitState string

// The portrait states: a gift whose product requiresPortrait waits for a
// photo, then for its approval.
const (
	PortraitAwaitingPhoto    PortraitState = "awaiting_photo"
	PortraitAwaitingApproval PortraitState = "awaiting_approval"
	PortraitApproved         PortraitState = "approved"
)

// PhotoAction is what update_recipient_photo does.
type PhotoAction string

// The photo actions.
const (
	PhotoApprove PhotoAction = "approve"
	PhotoReplace PhotoAction = "replace"
	PhotoReject  PhotoAction = "reject"
)

// Portrait is a gift's portrait.
type Portrait struct {
	State      PortraitState `json:"state" jsonschema:"awaiting_photo, awaiting_approval or approved" schema:"enum=awaiting_photo|awaiting_approval|approved"`
	Version    int           `json:"version" jsonschema:"increases on every change; send it back with the next photo change"`
	AssetID    string        `json:"assetId,omitempty" jsonschema:"the photo (asset_...), once there is one"`
	SourceURL  string        `json:"sourceUrl,omitempty" jsonschema:"where an imported photo came from"`
	ApprovedAt *time.Time    `json:"approvedAt,omitempty" jsonschema:"when the photo was approved"`
}

// PortraitOf is a stored portrait, or nil for a gift without one.
func PortraitOf(state string, version int32, assetID, sourceURL string, approvedAt *time.Time) *Portrait {
	if state == "" {
		return nil
	}
	return &Portrait{State: PortraitState(state), Version: int(version), AssetID: assetID, SourceURL: sourceURL, ApprovedAt: approvedAt}
}

// PhotoChange is update_recipient_photo's input.
type PhotoChange struct {
	Version         int
	Action          PhotoAction
	RightsConfirmed bool
	AssetID         string
}

// closedStatuses are the gift statuses after which a portrait no longer
// changes: the order was reviewed (in production) or the gift ended.
var closedStatuses = []string{"in_production", "shipped", "delivered", "declined", "expired", "cancelled"}

// StartPortrait gives a new gift whose product requiresPortrait its
// portrait, in the caller's transaction: awaiting_approval with the
// person's uploaded photo (assetID), otherwise awaiting_photo; version 1.
func StartPortrait(ctx context.Context, q *db.Queries, workspaceID, sendID, assetID string, now time.Time) (*Portrait, error) {
	p := &Portrait{State: PortraitAwaitingPhoto, Version: 1}
	if assetID != "" {
		p.State, p.AssetID = PortraitAwaitingApproval, assetID
	}
	if err := q.PortraitSet(ctx, db.PortraitSetParams{
		WorkspaceID: workspaceID, ID: sendID, PortraitState: string(p.State), PortraitVersion: 1, PortraitAssetID: p.AssetID, UpdatedAt: now,
	}); err != nil {
		return nil, core.Internal(err)
	}
	return p, nil
}

// UpdatePhoto changes gift sendID's portrait, with the user's explicit
// authorization: approve (rightsConfirmed: true) the photo awaiting
// approval; replace it with assetId, a ready portrait of the workspace
// (back to awaiting_approval); or reject it (back to awaiting_photo).
// version must be the portrait's current version; every change increases
// it. Codes: VALIDATION_ERROR naming the field; NOT_FOUND naming id;
// INVALID_REQUEST_STATE naming version (stale: 409, re-read the gift) or
// action (no portrait, nothing to approve, or the order was reviewed);
// ARTWORK_UNAVAILABLE naming assetId; those of Authorize (ActUpdatePhoto).
func (s *Service) UpdatePhoto(ctx context.Context, p core.Principal, sendID string, ch PhotoChange) (Portrait, error) {
	if err := core.Authorize(p, core.ActUpdatePhoto, ""); err != nil {
		return Portrait{}, err
	}
	if err := ch.check(); err != nil {
		return Portrait{}, err
	}
	var out Portrait
	err := s.InTx(ctx, func(q *db.Queries) error {
		r, err := q.PortraitLock(ctx, db.PortraitLockParams{WorkspaceID: p.WorkspaceID, ID: strings.TrimSpace(sendID)})
		if errors.Is(err, pgx.ErrNoRows) {
			return core.FieldError(core.CodeNotFound, "id", "no gift %s in this workspace", core.Clip(sendID, 60))
		}
		if err != nil {
			return core.Internal(err)
		}
		cur := PortraitOf(r.PortraitState, r.PortraitVersion, r.PortraitAssetID, r.PortraitSourceUrl, r.PortraitApprovedAt)
		if err := ch.fits(cur, r.Status); err != nil {
			return err
		}
		next := *cur
		next.Version++
		switch ch.Action {
		case PhotoApprove:
			now := s.Clock.Now()
			next.State, next.ApprovedAt = PortraitApproved, &now
		case PhotoReplace:
			ready, err := checkReady(ctx, q, p.WorkspaceID, []Named{{Field: "assetId", ID: ch.AssetID, Use: UsePortrait}})
			if err != nil {
				return err
			}
			next.State, next.AssetID, next.SourceURL, next.ApprovedAt = PortraitAwaitingApproval, ch.AssetID, ready[ch.AssetID].SourceUrl, nil
		case PhotoReject:
			next.State, next.AssetID, next.SourceURL, next.ApprovedAt = PortraitAwaitingPhoto, "", "", nil
		}
		if err := q.PortraitSet(ctx, db.PortraitSetParams{
			WorkspaceID: p.WorkspaceID, ID: r.ID, PortraitState: string(next.State), PortraitVersion: int32(next.Version), PortraitAssetID: next.AssetID,
			PortraitSourceUrl: next.SourceURL, PortraitApprovedAt: next.ApprovedAt, UpdatedAt: s.Clock.Now(),
		}); err != nil {
			return core.Internal(err)
		}
		out = next
		return nil
	})
	return out, core.AsCoreError(err)
}

// check validates a change on its own.
func (ch *PhotoChange) check() error {
	ch.AssetID = strings.TrimSpace(ch.AssetID)
	if ch.Version < 1 {
		return core.Invalid("version", "is required: the portrait's version as last read (1 or more)")
	}
	switch ch.Action {
	case PhotoApprove:
		if !ch.RightsConfirmed {
			return core.Invalid("rightsConfirmed", "must be true: approve only with the user's explicit authorization for this image")
		}
	case PhotoReplace:
		if !strings.HasPrefix(ch.AssetID, core.PrefixAsset) || len(ch.AssetID) > 100 || core.HasControl(ch.AssetID) {
			return core.Invalid("assetId", "is required with replace: an uploaded or imported photo's asset ID (asset_...)")
		}
	case PhotoReject:
	default:
		return core.Invalid("action", "must be one of approve, replace, reject")
	}
	if ch.Action != PhotoReplace && ch.AssetID != "" {
		return core.Invalid("assetId", "is only for replace")
	}
	return nil
}

// fits refuses a change the gift's portrait cannot take now.
func (ch PhotoChange) fits(cur *Portrait, status string) error {
	switch {
	case cur == nil:
		return core.FieldError(core.CodeInvalidRequestState, "action", "this gift's product needs no portrait")
	case slices.Contains(closedStatuses, status):
		return core.FieldError(core.CodeInvalidRequestState, "action", "the gift is %s: portrait changes close once the order is reviewed", status)
	case ch.Version != cur.Version:
		return core.FieldError(core.CodeInvalidRequestState, "version", "is stale: the portrait is at version %d (%s); read the gift, then decide again", cur.Version, cur.State)
	case ch.Action == PhotoApprove && cur.State != PortraitAwaitingApproval:
		return core.FieldError(core.CodeInvalidRequestState, "action", "the portrait is %s: only a photo awaiting approval can be approved", cur.State)
	}
	return nil
}
