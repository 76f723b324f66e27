package giftlink

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// RefundState is where a gift's refund request stands: requested (waits for
// the service's staff), processing (approved; a card refund is under way),
// then refunded or rejected. Requested and processing never mean refunded.
type RefundState string

// The refund states; RefundNone is a link's refundState without a request.
const (
	RefundNone       RefundState = "none"
	RefundRequested  RefundState = "requested"
	RefundProcessing RefundState = "processing"
	RefundRefunded   RefundState = "refunded"
	RefundRejected   RefundState = "rejected"
)

// open reports whether a request in state r still waits for its end.
func (r RefundState) open() bool { return r == RefundRequested || r == RefundProcessing }

// MaxRefundReason bounds a refund request's reason.
const MaxRefundReason = 500

// GiftRefund is one refund request of a gift (the campaign's refund
// history, GET /campaigns/{id}/gift-refunds).
type GiftRefund struct {
	ID         string      `json:"id" jsonschema:"the refund request (rfd_...)"`
	SendID     string      `json:"sendId" jsonschema:"the gift"`
	CampaignID string      `json:"campaignId" jsonschema:"the gift's campaign"`
	Mode       core.Mode   `json:"mode" jsonschema:"test or live, the gift's" schema:"enum=test|live"`
	State      RefundState `json:"state" jsonschema:"requested (staff review it), processing (approved, the card refund is under way), refunded or rejected; requested and processing do not mean refunded" schema:"enum=requested|processing|refunded|rejected"`
	// Refunded is true only once the money is back.
	Refunded    bool          `json:"refunded" jsonschema:"true only once the money is back (state refunded)"`
	Reason      string        `json:"reason" jsonschema:"why the refund was asked for"`
	AmountCents int64         `json:"amountCents" jsonschema:"what the gift cost, USD cents"`
	FundedBy    gift.FundedBy `json:"fundedBy" jsonschema:"balance (credited back to the balance) or checkout (refunded to the card)" schema:"enum=balance|checkout"`
	RequestedBy string        `json:"requestedBy" jsonschema:"the user who asked"`
	RequestedAt time.Time     `json:"requestedAt" jsonschema:"when it was asked for"`
	DecidedAt   *time.Time    `json:"decidedAt,omitempty" jsonschema:"when it was refunded or rejected"`

	workspaceID string
}

// refundFromRow maps a stored request.
func refundFromRow(r db.GiftRefund) GiftRefund {
	st := RefundState(r.State)
	return GiftRefund{
		ID: r.ID, SendID: r.SendID, CampaignID: r.CampaignID, Mode: core.Mode(r.Mode), State: st,
		Refunded: st == RefundRefunded, Reason: r.Reason, AmountCents: r.AmountCents,
		FundedBy: gift.FundedBy(r.FundedBy), RequestedBy: r.RequestedBy, RequestedAt: r.CreatedAt, DecidedAt: r.DecidedAt,
		workspaceID: r.WorkspaceID,
	}
}

// canRequestRefund says why v's gift cannot be asked a refund for at now,
// or nil (CanRequestRefund).
func (v linkView) canRequestRefund(now time.Time) error {
	return CanRequestRefund(RefundFacts{
		SendID: v.send.ID, SendStatus: v.send.Status, TotalCents: v.send.TotalCents, FundedBy: gift.FundedBy(v.send.FundedBy),
		LinkState: v.link.State, LinkExpiresAt: v.link.ExpiresAt, Refund: v.refund,
	}, now)
}

// RequestRefund asks the service's staff to refund gift sendID, for p, a
// signed-in owner or admin, with reason (1-500 characters). The request
// waits in state requested; nothing is credited until staff approve it
// (DecideRefund). Asking again while a request waits or after it was
// refunded returns that request unchanged. It returns the codes of
// Authorize (ActPay), VALIDATION_ERROR naming reason, NOT_FOUND naming id,
// and INVALID_REQUEST_STATE naming id for a gift that cannot be refunded
// (its link is active or used, or it cost nothing).
func (s *Service) RequestRefund(ctx context.Context, p core.Principal, sendID, reason string) (GiftRefund, error) {
	if err := core.Authorize(p, core.ActPay, s.Config.SiteURL+"/gifts/"+sendID); err != nil {
		return GiftRefund{}, err
	}
	reason = strings.TrimSpace(reason)
	switch {
	case reason == "":
		return GiftRefund{}, core.Invalid("reason", "is required: say why the gift should be refunded")
	case utf8.RuneCountInString(reason) > MaxRefundReason || core.HasControl(reason):
		return GiftRefund{}, core.Invalid("reason", "must be at most %d characters without control characters", MaxRefundReason)
	}
	now := s.Clock.Now()
	var out GiftRefund
	err := pgx.BeginFunc(ctx, s.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		v, err := lockView(ctx, q, p.WorkspaceID, sendID, "id")
		if err != nil {
			return err
		}
		if v.refund.open() || v.refund == RefundRefunded {
			r, err := q.GiftRefundOpenBySend(ctx, v.send.ID)
			if err != nil {
				return core.Internal(err)
			}
			out = refundFromRow(r)
			return nil
		}
		if err := v.canRequestRefund(now); err != nil {
			return err
		}
		r, err := q.GiftRefundInsert(ctx, db.GiftRefundInsertParams{
			ID: core.NewID(core.PrefixRefund), WorkspaceID: v.send.WorkspaceID, CampaignID: v.send.CampaignID,
			SendID: v.send.ID, Mode: v.send.Mode, Reason: reason, AmountCents: v.send.TotalCents,
			FundedBy: v.send.FundedBy, RequestedBy: p.UserID, CreatedAt: now,
		})
		if err != nil {
			return core.Internal(err)
		}
		out = refundFromRow(r)
		return nil
	})
	return out, core.AsCoreError(err)
}

// CampaignRefunds returns the refund history of campaign campaignID, newest
// first. It returns NOT_FOUND naming id, or the codes of Authorize
// (ActRead).
func (s *Service) CampaignRefunds(ctx context.Context, p core.Principal, campaignID string) ([]GiftRefund, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return nil, err
	}
	out := []GiftRefund{}
	err := s.ReadTx(ctx, func(q *db.Queries) error {
		c, err := getCampaign(ctx, q, p.WorkspaceID, campaignID)
		if err != nil {
			return err
		}
		rows, err := q.GiftRefundListByCampaign(ctx, db.GiftRefundListByCampaignParams{WorkspaceID: p.WorkspaceID, CampaignID: c.ID})
		if err != nil {
			return core.Internal(err)
		}
		for _, r := range rows {
			out = append(out, refundFromRow(r))
		}
		return nil
	})
	return out, err
}

// latestRefunds maps each gift of a campaign to its latest request's state.
func latestRefunds(ctx context.Context, q *db.Queries, workspaceID, campaignID string) (map[string]RefundState, error) {
	rows, err := q.GiftRefundListByCampaign(ctx, db.GiftRefundListByCampaignParams{WorkspaceID: workspaceID, CampaignID: campaignID})
	if err != nil {
		return nil, core.Internal(err)
	}
	out := make(map[string]RefundState, len(rows))
	for _, r := range rows { // newest first: the first seen is the latest
		if _, ok := out[r.SendID]; !ok {
			out[r.SendID] = RefundState(r.State)
		}
	}
	return out, nil
}

// withRefund is v with its gift's latest refund state.
func withRefund(ctx context.Context, q *db.Queries, v linkView) (linkView, error) {
	r, err := q.GiftRefundLatestBySend(ctx, v.send.ID)
	if core.IsNoRows(err) {
		return v, nil
	}
	if err != nil {
		return linkView{}, core.Internal(err)
	}
	v.refund = RefundState(r.State)
	return v, nil
}
