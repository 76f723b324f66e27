package giftlink

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// The recipient's page (docs/decisions/0068-recipient-page.md) is for
// people who never sign in: the token in the link is the credential, so
// Open, Confirm and Decline take no Principal. Every one of them is
// throttled per client address: an unknown or malformed token is a guess
// (throttle.go).

// Open is the recipient opening gift link token from clientIP. It returns
// the page to show: PageOpen with the gift, the sender's branding and the
// landing message for an active link of the current generation whose gift
// waits for its address, or a bare end state (used, revoked, expired,
// replaced, closed, unknown). Opening an open link records send.link_opened
// {generation} once per generation. It returns RATE_LIMIT while clientIP is
// over the guess limit, or INTERNAL_ERROR.
func (s *Service) Open(ctx context.Context, token, clientIP string) (Page, error) {
	if err := s.admitGuess(ctx, clientIP); err != nil {
		return Page{}, err
	}
	if !core.GiftLinkTokenShaped(token) {
		return s.unknownPage(ctx, clientIP)
	}
	var (
		v     linkView
		st    PageState
		found bool
	)
	err := s.InTxJobs(ctx, func(tx pgx.Tx) error {
		q := db.New(tx)
		var gen int32
		var err error
		v, gen, found, err = findView(ctx, q, token)
		if err != nil || !found {
			return err
		}
		st = pageState(v, gen, s.Clock.Now())
		if st != PageOpen {
			return nil
		}
		n, err := q.GiftLinkMarkOpened(ctx, v.send.ID)
		if err != nil {
			return core.Internal(err)
		}
		if n == 0 {
			return nil
		}
		return s.RecordEvent(ctx, tx, v.event(core.EventSendLinkOpened))
	})
	if err != nil {
		return Page{}, core.AsCoreError(err)
	}
	if !found {
		return s.unknownPage(ctx, clientIP)
	}
	switch st {
	case PageOpen:
		return s.openPage(ctx, v), nil
	case PageUsed:
		return usedPage(v), nil
	}
	return Page{State: st}, nil
}

// unknownPage counts a guess of clientIP and answers PageUnknown, or
// RATE_LIMIT when the guess is over the limit.
func (s *Service) unknownPage(ctx context.Context, clientIP string) (Page, error) {
	if err := s.countGuess(ctx, clientIP); err != nil {
		return Page{}, err
	}
	return Page{State: PageUnknown}, nil
}

// findView finds the link of token with its gift and campaign, and the
// generation the token was made for; found is false for a token no link
// ever had.
func findView(ctx context.Context, q *db.Queries, token string) (linkView, int32, bool, error) {
	r, err := q.GiftLinkByTokenHash(ctx, core.GiftLinkTokenHash(token))
	if core.IsNoRows(err) {
		return linkView{}, 0, false, nil
	}
	if err != nil {
		return linkView{}, 0, false, core.Internal(err)
	}
	c, err := getCampaign(ctx, q, r.Send.WorkspaceID, r.Send.CampaignID)
	if err != nil {
		return linkView{}, 0, false, core.Internal(err)
	}
	return linkView{link: r.GiftLink, send: r.Send, campaign: c}, r.TokenGeneration, true, nil
}

// lockTokenView is findView with the gift and its link locked for a
// change (lockView), in the caller's transaction.
func lockTokenView(ctx context.Context, tx pgx.Tx, token string) (linkView, int32, bool, error) {
	q := db.New(tx)
	r, err := q.GiftLinkByTokenHash(ctx, core.GiftLinkTokenHash(token))
	if core.IsNoRows(err) {
		return linkView{}, 0, false, nil
	}
	if err != nil {
		return linkView{}, 0, false, core.Internal(err)
	}
	v, err := lockView(ctx, q, r.Send.WorkspaceID, r.Send.ID, "token")
	if err != nil {
		return linkView{}, 0, false, core.Internal(err)
	}
	return v, r.TokenGeneration, true, nil
}

// event is an event of type t about v's gift, carrying the link's
// generation and nothing else.
func (v linkView) event(t core.EventType) core.EventRecord {
	return core.EventRecord{
		WorkspaceID: v.send.WorkspaceID, Type: t, Mode: core.Mode(v.send.Mode), CampaignID: v.send.CampaignID,
		SendID: v.send.ID, RecipientID: v.send.RecipientID, Data: map[string]any{"generation": v.link.Generation},
	}
}
