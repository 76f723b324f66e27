package giftlink

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
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

// CardRefundStatus is where the processor says a card refund stands.
type CardRefundStatus string

// The card refund statuses.
const (
	// CardRefundSucceeded: the money is back on the card.
	CardRefundSucceeded CardRefundStatus = "succeeded"
	// CardRefundPending: the processor has not finished it yet.
	CardRefundPending CardRefundStatus = "pending"
	// CardRefundFailed: the processor gave up on it.
	CardRefundFailed CardRefundStatus = "failed"
)

// CardRefundResult is the processor's answer to a card refund.
type CardRefundResult struct {
	// ProcessorID is the processor's refund ID.
	ProcessorID string
	Status      CardRefundStatus
	// Message is the processor's reason when it failed.
	Message string
}

// CardRefunder refunds card-paid gifts through the payment processor. It
// is called with no transaction or row lock held, and must be idempotent
// per CardRefund.RefundID: a repeated call answers the same refund's
// status as it stands now.
type CardRefunder interface {
	RefundCard(ctx context.Context, r CardRefund) (CardRefundResult, error)
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
// transaction (campaign.Service.RefundGiftTx); a card-paid one is checked
// still refundable (campaign.Service.RefundableTx) and becomes processing,
// is refunded through CardRefunder outside any transaction, and becomes
// refunded only when the processor says the refund succeeded. A refund
// the processor has not finished stays processing, and the next approval
// reads it again (same idempotency key); one the processor failed stays
// processing with INVALID_REQUEST_STATE carrying its reason; a call that
// failed is retried by the next approval. Deciding a refunded request
// again returns it unchanged. It returns VALIDATION_ERROR naming decision,
// NOT_FOUND (send) when the gift has no request, INVALID_REQUEST_STATE
// (decision) for a rejected request, or for rejecting one under way,
// INVALID_REQUEST_STATE (status) for a card-paid gift that went on to be
// fulfilled before the processor was called, INVALID_REQUEST_STATE
// (decision) for a card refund the processor failed, the CardRefunder's
// error for a failed call, and INTERNAL_ERROR when a card refund is due
// and no CardRefunder is set.
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
		case gift.FundedBy(r.FundedBy) == gift.FundedByBalance:
			if _, err := s.Gifts.RefundGiftTx(ctx, tx, sendID, "refund "+r.ID+" approved"); err != nil {
				return err
			}
			if out, err = s.setRefundState(ctx, q, r, RefundRefunded, ""); err != nil {
				return err
			}
			return s.recordRefunded(ctx, tx, out)
		default:
			card = true
			if r.ProcessorRefundID == "" {
				// The processor has not taken the refund yet: the gift
				// must still be unused now, before the money moves.
				if err := s.Gifts.RefundableTx(ctx, tx, sendID); err != nil {
					return err
				}
			}
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
// records what the processor said: refunded (and its gift ended) only when
// the refund succeeded; otherwise it stays processing with the processor's
// refund ID.
func (s *Service) refundCard(ctx context.Context, r GiftRefund) (GiftRefund, error) {
	if s.CardRefunder == nil {
		return r, core.Internal(fmt.Errorf("refund %s: no card processor is configured", r.ID))
	}
	res, err := s.CardRefunder.RefundCard(ctx, CardRefund{
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
		if res.Status != CardRefundSucceeded {
			out, err = s.setRefundState(ctx, q, row, RefundProcessing, res.ProcessorID)
			return err
		}
		if _, err := s.Gifts.RefundGiftTx(ctx, tx, r.SendID, "refund "+r.ID+" approved"); err != nil {
			if core.ErrorCode(err) != core.CodeInvalidRequestState {
				return err
			}
			// The money is back whatever the gift did meanwhile: record it.
			s.Log.ErrorContext(ctx, "card refunded for a gift that went on; staff to review", "refund", r.ID, "send", r.SendID, "err", err)
		}
		if out, err = s.setRefundState(ctx, q, row, RefundRefunded, res.ProcessorID); err != nil {
			return err
		}
		return s.recordRefunded(ctx, tx, out)
	})
	if err == nil && res.Status == CardRefundFailed {
		err = core.FieldError(core.CodeInvalidRequestState, "decision",
			"the payment processor failed card refund %s (%s) of gift %s: %s; it stays processing. Refund it from the processor's dashboard", r.ID, res.ProcessorID, r.SendID, res.Message)
	}
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

// recordRefunded records on the Activity page, in tx, that staff refunded
// gift r (to the balance, or to the card that paid for it).
func (s *Service) recordRefunded(ctx context.Context, tx pgx.Tx, r GiftRefund) error {
	where := "to the balance"
	if r.FundedBy == gift.FundedByCheckout {
		where = "to the card that paid for it"
	}
	return s.RecordActivity(ctx, tx, core.GiftwellPrincipal(r.workspaceID), core.ActivityRecord{
		Kind: core.ActivityRefunded, Mode: r.Mode, CampaignID: r.CampaignID, SendID: r.SendID, AmountCents: r.AmountCents, Subject: where,
	})
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
