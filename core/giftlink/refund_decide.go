package giftlink

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/sql/db"
)

// CardRefund is one card refund staff approved: the gift's cost back to the
// card that paid its checkout.
type CardRefund struct {
	// RefundID is the refund request (rfd_...); use it as the processor's
	// idempotency key, so an approval repeated after a failure never
	// refunds twice.
	RefundID    string
	WorkspaceID string
	CampaignID  string
	SendID      string
	Mode        core.Mode
	AmountCents int64
}

// CardRefunder refunds card-paid gifts through the payment processor. It
// is called with no transaction or row lock held, and must be idempotent
// per CardRefund.RefundID. It returns the processor's refund ID.
type CardRefunder interface {
	RefundCard(ctx context.Context, r CardRefund) (string, error)
}

// RefundDecision is a staff decision on a gift's refund request.
type RefundDecision string

// The decisions.
const (
	RefundApprove RefundDecision = "approve"
	RefundReject  RefundDecision = "reject"
)

// DecideRefund records the service's staff decision on gift sendID's latest
// refund request (giftwell staff refund). Reject ends a requested one.
// Approve refunds it exactly once however often it is approved: a
// balance-paid gift is credited to its balance and ends cancelled in one
// transaction (campaign.Service.RefundGiftTx); a card-paid one becomes
// processing, is refunded through CardRefunder outside any transaction,
// then becomes refunded (a failed card refund stays processing and the
// next approval retries it with the same idempotency key). Deciding a
// refunded request again returns it unchanged. It returns VALIDATION_ERROR
// naming decision, NOT_FOUND (send) when the gift has no request,
// INVALID_REQUEST_STATE (decision) for a rejected request, or for rejecting
// one under way, the CardRefunder's error for a failed card refund, and
// INTERNAL_ERROR when a card refund is due and no CardRefunder is set.
func (s *Service) DecideRefund(ctx context.Context, sendID string, d RefundDecision) (GiftRefund, error) {
	if d != RefundApprove && d != RefundReject {
		return GiftRefund{}, core.Invalid("decision", "must be approve or reject")
	}
	var (
		out  GiftRefund
		card bool
	)
	err := s.InTxJobs(ctx, func(tx pgx.Tx) error {
		q := db.New(tx)
		r, err := lockRefund(ctx, q, sendID)
		if err != nil {
			return err
		}
		out = refundFromRow(r)
		switch st := RefundState(r.State); {
		case st == RefundRefunded:
			return nil
		case st == RefundRejected:
			return core.FieldError(core.CodeInvalidRequestState, "decision",
				"the refund request %s of gift %s was rejected; the owner may ask again", r.ID, sendID)
		case d == RefundReject && st == RefundProcessing:
			return core.FieldError(core.CodeInvalidRequestState, "decision",
				"the card refund %s of gift %s is under way and cannot be rejected", r.ID, sendID)
		case d == RefundReject:
			out, err = s.setRefundState(ctx, q, r, RefundRejected, "")
			return err
		case campaign.FundedBy(r.FundedBy) == campaign.FundedByBalance:
			if _, err := s.Campaigns.RefundGiftTx(ctx, tx, sendID, "refund "+r.ID+" approved"); err != nil {
				return err
			}
			out, err = s.setRefundState(ctx, q, r, RefundRefunded, "")
			return err
		default:
			card = true
			if st == RefundRequested {
				out, err = s.setRefundState(ctx, q, r, RefundProcessing, "")
			}
			return err
		}
	})
	if err != nil || !card {
		return out, core.AsCoreError(err)
	}
	return s.refundCard(ctx, out)
}

// refundCard refunds processing request r through the processor, then
// records it refunded and ends its gift.
func (s *Service) refundCard(ctx context.Context, r GiftRefund) (GiftRefund, error) {
	if s.CardRefunder == nil {
		return r, core.Internal(fmt.Errorf("refund %s: no card processor is configured", r.ID))
	}
	processorID, err := s.CardRefunder.RefundCard(ctx, CardRefund{
		RefundID: r.ID, WorkspaceID: r.workspaceID, CampaignID: r.CampaignID, SendID: r.SendID, Mode: r.Mode, AmountCents: r.AmountCents,
	})
	if err != nil {
		return r, core.AsCoreError(err)
	}
	var out GiftRefund
	err = s.InTxJobs(ctx, func(tx pgx.Tx) error {
		q := db.New(tx)
		row, err := lockRefund(ctx, q, r.SendID)
		if err != nil {
			return err
		}
		out = refundFromRow(row)
		if row.ID != r.ID || RefundState(row.State) != RefundProcessing {
			return nil
		}
		if _, err := s.Campaigns.RefundGiftTx(ctx, tx, r.SendID, "refund "+r.ID+" approved"); err != nil {
			return err
		}
		out, err = s.setRefundState(ctx, q, row, RefundRefunded, processorID)
		return err
	})
	return out, core.AsCoreError(err)
}

// lockRefund locks gift sendID's latest refund request, or NOT_FOUND
// naming send.
func lockRefund(ctx context.Context, q *db.Queries, sendID string) (db.GiftRefund, error) {
	r, err := q.GiftRefundDecideLock(ctx, sendID)
	if core.IsNoRows(err) {
		return db.GiftRefund{}, core.FieldError(core.CodeNotFound, "send", "gift %s has no refund request", sendID)
	}
	if err != nil {
		return db.GiftRefund{}, core.Internal(err)
	}
	return r, nil
}

// setRefundState moves locked request r to st.
func (s *Service) setRefundState(ctx context.Context, q *db.Queries, r db.GiftRefund, st RefundState, processorID string) (GiftRefund, error) {
	now := s.Clock.Now()
	r.State, r.UpdatedAt = string(st), now
	if processorID != "" {
		r.ProcessorRefundID = processorID
	}
	if st == RefundRefunded || st == RefundRejected {
		r.DecidedAt = &now
	}
	if err := q.GiftRefundSetState(ctx, db.GiftRefundSetStateParams{
		State: r.State, ProcessorRefundID: r.ProcessorRefundID, DecidedAt: r.DecidedAt, UpdatedAt: now, ID: r.ID,
	}); err != nil {
		return GiftRefund{}, core.Internal(err)
	}
	return refundFromRow(r), nil
}
