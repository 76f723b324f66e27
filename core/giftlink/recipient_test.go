package giftlink_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

func TestOpenShowsTheGiftAndRecordsLinkOpenedOncePerGeneration(t *testing.T) {
	t.Parallel()
	g := newLinkGifts(t)
	ctx := context.Background()
	sendID, token := g.gift("1")

	page, err := g.env.App.GiftLinks.Open(ctx, token, ip)
	require.NoError(t, err)
	require.Equal(t, giftlink.PageOpen, page.State)
	require.True(t, page.Test, "the workspace is in test mode")
	require.Equal(t, giftlink.Branding{SenderName: "Sam Seller", SenderCompany: "Acme & Co", ContactEmail: "gifts@acme.example"}, page.Sender)
	// The welcome's placeholders are filled literally: markup stays text
	// for the page to escape.
	require.Equal(t, "Hello Ada at Analytical 1: <b>a gift</b> for you.", page.Message)
	require.Equal(t, "Thanks for the chat, Ada!", page.Note)
	require.Equal(t, "Ada Lovelace 1", page.RecipientName)
	prod, err := g.env.App.Catalog.Get(ctx, "gourmet-snack-crate")
	require.NoError(t, err)
	require.Equal(t, giftlink.PageGift{Name: prod.Name, Description: prod.Description, Image: prod.Image, ImageLabel: prod.ImageLabel, LeadDays: prod.LeadDays}, page.Gift)
	require.Contains(t, strings.Join(page.WhatHappensNext, " "), "This is a test gift: nothing will ship.")
	require.Nil(t, page.Address)

	_, err = g.env.App.GiftLinks.Open(ctx, token, ip)
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"generation": float64(1)}}, g.eventData(sendID, core.EventSendLinkOpened))

	// A regift's new generation kills the old token and is recorded once
	// on its own.
	_, err = g.env.App.GiftLinks.Regift(ctx, g.key, sendID, giftlink.Regift{Generation: 1, Recipient: giftlink.RegiftRecipient{Name: "Grace Hopper"}})
	require.NoError(t, err)
	old, err := g.env.App.GiftLinks.Open(ctx, token, ip)
	require.NoError(t, err)
	require.Equal(t, giftlink.Page{State: giftlink.PageReplaced}, old)
	fresh := g.token(sendID)
	require.NotEqual(t, token, fresh)
	for range 2 {
		page, err = g.env.App.GiftLinks.Open(ctx, fresh, ip)
		require.NoError(t, err)
		require.Equal(t, giftlink.PageOpen, page.State)
	}
	require.Equal(t, []map[string]any{{"generation": float64(1)}, {"generation": float64(2)}}, g.eventData(sendID, core.EventSendLinkOpened))
}

func TestConfirmMakesTheGiftReadyAndKeepsTheAddressApart(t *testing.T) {
	t.Parallel()
	g := newLinkGifts(t)
	ctx := context.Background()
	sendID, token := g.gift("1")
	_, err := g.env.App.GiftLinks.Open(ctx, token, ip)
	require.NoError(t, err)

	page, err := g.env.App.GiftLinks.Confirm(ctx, token, ip, goodAddress())
	require.NoError(t, err)
	require.Equal(t, giftlink.PageConfirmed, page.State)
	want := giftlink.Address{Name: "Ada Lovelace", Street: "12 Byron Way", Street2: "Apt 3", City: "Springfield", State: "IL", Zip: "62701-1234"}
	require.Equal(t, &want, page.Address, "the answer echoes the normalised address once")

	sent, err := g.env.App.Gifts.Get(ctx, g.key, sendID)
	require.NoError(t, err)
	require.Equal(t, gift.SendReady, sent.Status)
	require.NotNil(t, sent.AddressConfirmedAt)
	raw, err := json.Marshal(sent)
	require.NoError(t, err)
	for _, part := range []string{"Byron", "Apt 3", "Springfield", "62701", `"IL"`} {
		require.NotContains(t, string(raw), part, "get_send never shows a typed address")
	}
	require.Empty(t, sent.Recipient.Address)

	stored, err := db.New(g.env.App.DB).GiftAddressGet(ctx, sendID)
	require.NoError(t, err)
	require.Equal(t, want, giftlink.Address{Name: stored.Name, Street: stored.Street, Street2: stored.Street2, City: stored.City, State: stored.State, Zip: stored.Zip})
	require.Equal(t, "US", stored.Country)

	require.Equal(t, []core.EventType{core.EventSendCreated, core.EventSendLinkOpened, core.EventSendAddressConfirmed, core.EventSendStatusChanged}, g.events(sendID))
	require.Equal(t, []map[string]any{{"generation": float64(1)}}, g.eventData(sendID, core.EventSendAddressConfirmed))
	require.Equal(t, []map[string]any{{"from": "awaiting_address", "to": "ready", "reason": giftlink.ConfirmReason}}, g.eventData(sendID, core.EventSendStatusChanged))
	require.Len(t, apptest.Jobs(t, g.env.App, gift.SimulateFulfilmentArgs{}.Kind()), 1, "a test gift with an address starts its simulated life")

	l, err := g.env.App.GiftLinks.SendLink(ctx, g.owner, sendID)
	require.NoError(t, err)
	require.Equal(t, giftlink.LinkUsed, l.LinkState)
	require.Empty(t, l.URL)

	// The used link shows a bare page with only where the gift is, and
	// takes no second answer.
	again, err := g.env.App.GiftLinks.Open(ctx, token, ip)
	require.NoError(t, err)
	require.Equal(t, giftlink.Page{State: giftlink.PageUsed, Test: true, GiftStatus: gift.SendReady}, again)
	page, err = g.env.App.GiftLinks.Confirm(ctx, token, ip, goodAddress())
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	require.Equal(t, giftlink.Page{State: giftlink.PageUsed}, page)
	page, err = g.env.App.GiftLinks.Decline(ctx, token, ip)
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	require.Equal(t, giftlink.Page{State: giftlink.PageUsed}, page)
	require.Equal(t, 0, g.credits(sendID))
}

func TestConfirmRefusesABadAddressAndKeepsTheLink(t *testing.T) {
	t.Parallel()
	g := newLinkGifts(t)
	ctx := context.Background()
	sendID, token := g.gift("1")
	bad := goodAddress()
	bad.Zip = "6270"
	page, err := g.env.App.GiftLinks.Confirm(ctx, token, ip, bad)
	e := apptest.RequireCode(t, err, core.CodeValidation)
	require.Equal(t, []string{"zip"}, e.Fields)
	require.Equal(t, giftlink.PageOpen, page.State, "the page to correct the address on")
	require.Equal(t, "Ada Lovelace 1", page.RecipientName)
	sent, err := g.env.App.Gifts.Get(ctx, g.key, sendID)
	require.NoError(t, err)
	require.Equal(t, gift.SendAwaitingAddress, sent.Status)
	_, err = db.New(g.env.App.DB).GiftAddressGet(ctx, sendID)
	require.True(t, core.IsNoRows(err), "nothing stored: %v", err)
	page, err = g.env.App.GiftLinks.Open(ctx, token, ip)
	require.NoError(t, err)
	require.Equal(t, giftlink.PageOpen, page.State)
}

func TestDeclineCreditsABalancePaidGiftOnce(t *testing.T) {
	t.Parallel()
	g := newLinkGifts(t)
	ctx := context.Background()
	sendID, token := g.gift("1")

	page, err := g.env.App.GiftLinks.Decline(ctx, token, ip)
	require.NoError(t, err)
	require.Equal(t, giftlink.PageDeclined, page.State)
	require.Equal(t, "Acme & Co", page.Sender.SenderCompany)
	require.Nil(t, page.Address)
	sent, err := g.env.App.Gifts.Get(ctx, g.key, sendID)
	require.NoError(t, err)
	require.Equal(t, gift.SendDeclined, sent.Status)
	require.Nil(t, sent.AddressConfirmedAt)
	require.Equal(t, []map[string]any{{"from": "awaiting_address", "to": "declined", "reason": giftlink.DeclineReason}}, g.eventData(sendID, core.EventSendStatusChanged))
	require.Equal(t, 1, g.credits(sendID))

	page, err = g.env.App.GiftLinks.Decline(ctx, token, ip)
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	require.Equal(t, giftlink.Page{State: giftlink.PageUsed}, page)
	require.Equal(t, 1, g.credits(sendID))
}

func TestEndStatesRevealNothing(t *testing.T) {
	t.Parallel()
	g := newLinkGifts(t)
	ctx := context.Background()
	links := g.env.App.GiftLinks

	revoked, revokedToken := g.gift("revoked")
	require.NoError(t, pgx.BeginFunc(ctx, g.env.App.DB, func(tx pgx.Tx) error {
		now := g.env.Clock.Now()
		return db.New(tx).GiftLinkRevoke(ctx, db.GiftLinkRevokeParams{RevokedAt: &now, SendID: revoked})
	}))
	cancelled, cancelledToken := g.gift("cancelled")
	_, err := g.env.App.Gifts.MoveGift(ctx, gift.GiftMove{SendID: cancelled, To: gift.SendCancelled, Reason: "test"})
	require.NoError(t, err)
	_, expiringToken := g.gift("expiring")

	for _, c := range []struct {
		token string
		want  giftlink.PageState
	}{
		{revokedToken, giftlink.PageRevoked},
		{cancelledToken, giftlink.PageClosed},
		{strings.Repeat("A", 43), giftlink.PageUnknown},
		{"not-a-token", giftlink.PageUnknown},
	} {
		page, err := links.Open(ctx, c.token, ip)
		require.NoError(t, err)
		require.Equal(t, giftlink.Page{State: c.want}, page, "open %s", c.want)
		page, err = links.Confirm(ctx, c.token, ip, goodAddress())
		if c.want == giftlink.PageUnknown {
			apptest.RequireCode(t, err, core.CodeNotFound)
		} else {
			apptest.RequireCode(t, err, core.CodeInvalidRequestState)
		}
		require.Equal(t, giftlink.Page{State: c.want}, page, "confirm %s", c.want)
	}
	require.Empty(t, g.eventData(revoked, core.EventSendLinkOpened))

	g.env.Clock.Advance(gift.GiftLinkLifetime)
	page, err := links.Open(ctx, expiringToken, ip)
	require.NoError(t, err)
	require.Equal(t, giftlink.Page{State: giftlink.PageExpired}, page)
	page, err = links.Decline(ctx, expiringToken, ip)
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	require.Equal(t, giftlink.Page{State: giftlink.PageExpired}, page)
}
