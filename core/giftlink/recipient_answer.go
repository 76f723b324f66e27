package giftlink

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// DeclineReason is the reason send.status_changed carries when a recipient
// declines their gift.
const DeclineReason = "declined by the recipient"

// ConfirmReason is the reason send.status_changed carries when a
// recipient's address makes their gift ready.
const ConfirmReason = "address confirmed by the recipient"

// Confirm is the recipient of gift link token, from clientIP, confirming
// address a. In one transaction, with the gift and its link locked: the
// address goes to gift_addresses (never to the gift), the link is used, the
// gift records when its address was confirmed and send.address_confirmed
// {generation}, and it moves to ready (send.status_changed; a test gift
// starts its simulated fulfilment). It returns PageConfirmed with the
// normalised address; the open page with VALIDATION_ERROR naming name,
// street, street2, city, state (also a state outside the gift's prepaid
// shipping states, shipsTo) or zip (nothing changed); the link's end-state page with INVALID_REQUEST_STATE naming
// token when the link is used, revoked, expired, replaced or its gift no
// longer waits (a raced confirm, decline or revoke lost); PageUnknown with
// NOT_FOUND naming token for a token no link has; RATE_LIMIT while clientIP
// is over the guess limit; or INTERNAL_ERROR.
func (s *Service) Confirm(ctx context.Context, token, clientIP string, a Address) (Page, error) {
	return s.answer(ctx, token, clientIP, func(tx pgx.Tx, v linkView) (Page, error) {
		addr, err := a.Normalize()
		if err != nil {
			return Page{}, err
		}
		if err := v.shipsTo(addr.State); err != nil {
			return Page{}, err
		}
		q := db.New(tx)
		now := s.Clock.Now()
		if err := q.GiftAddressInsert(ctx, db.GiftAddressInsertParams{
			SendID: v.send.ID, Name: addr.Name, Street: addr.Street, Street2: addr.Street2, City: addr.City,
			State: addr.State, Zip: addr.Zip, ConfirmedAt: now,
		}); err != nil {
			return Page{}, core.Internal(err)
		}
		if err := q.SendSetAddressConfirmed(ctx, db.SendSetAddressConfirmedParams{ConfirmedAt: &now, ID: v.send.ID}); err != nil {
			return Page{}, core.Internal(err)
		}
		if err := s.RecordEvent(ctx, tx, v.event(core.EventSendAddressConfirmed)); err != nil {
			return Page{}, err
		}
		if _, err := s.Gifts.MoveGiftTx(ctx, tx, gift.GiftMove{SendID: v.send.ID, To: gift.SendReady, Reason: ConfirmReason}); err != nil {
			return Page{}, err
		}
		p := answerPage(v, PageConfirmed)
		p.Address = &addr
		return p, nil
	})
}

// Decline is the recipient of gift link token, from clientIP, declining
// the gift. In one transaction, with the gift and its link locked: the link
// is used and the gift moves to declined (send.status_changed with
// DeclineReason; a balance-paid gift is credited back once). It returns
// PageDeclined, or the errors of Confirm other than VALIDATION_ERROR: a
// second or raced decline gets the used page with INVALID_REQUEST_STATE.
func (s *Service) Decline(ctx context.Context, token, clientIP string) (Page, error) {
	return s.answer(ctx, token, clientIP, func(tx pgx.Tx, v linkView) (Page, error) {
		if _, err := s.Gifts.MoveGiftTx(ctx, tx, gift.GiftMove{SendID: v.send.ID, To: gift.SendDeclined, Reason: DeclineReason}); err != nil {
			return Page{}, err
		}
		return answerPage(v, PageDeclined), nil
	})
}

// answer runs a recipient's answer through link token: throttled like
// Open, then in one transaction it locks the gift and its link, requires an
// open page (an active link of the current generation, not expired, its
// gift awaiting its address), marks the link used and runs fn.
func (s *Service) answer(ctx context.Context, token, clientIP string, fn func(tx pgx.Tx, v linkView) (Page, error)) (Page, error) {
	if err := s.admitGuess(ctx, clientIP); err != nil {
		return Page{}, err
	}
	if !core.GiftLinkTokenShaped(token) {
		return s.unknownAnswer(ctx, clientIP)
	}
	var (
		page  Page
		v     linkView
		found bool
	)
	err := s.InTxJobs(ctx, func(tx pgx.Tx) error {
		var (
			gen int32
			err error
		)
		v, gen, found, err = lockTokenView(ctx, tx, token)
		if err != nil || !found {
			return err
		}
		now := s.Clock.Now()
		if st := pageState(v, gen, now); st != PageOpen {
			page = Page{State: st}
			return stateRefusal(st)
		}
		if err := db.New(tx).GiftLinkUse(ctx, db.GiftLinkUseParams{UsedAt: &now, SendID: v.send.ID}); err != nil {
			return core.Internal(err)
		}
		page, err = fn(tx, v)
		return err
	})
	if err != nil {
		err = core.AsCoreError(err)
		switch {
		case core.ErrorCode(err) == core.CodeInvalidRequestState && page.State != "" && page.State != PageOpen:
			return page, err
		case core.ErrorCode(err) == core.CodeValidation && found:
			// The link is still open: the page to correct the address on.
			return s.openPage(ctx, v), err
		}
		return Page{}, err
	}
	if !found {
		return s.unknownAnswer(ctx, clientIP)
	}
	return page, nil
}

// unknownAnswer counts a guess of clientIP and answers PageUnknown with
// NOT_FOUND naming token, or RATE_LIMIT when the guess is over the limit.
func (s *Service) unknownAnswer(ctx context.Context, clientIP string) (Page, error) {
	if _, err := s.unknownPage(ctx, clientIP); err != nil {
		return Page{}, err
	}
	return Page{State: PageUnknown}, core.FieldError(core.CodeNotFound, "token", "no gift link has this address; check the link you were sent")
}
