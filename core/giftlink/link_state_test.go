package giftlink_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/internal/apptest"
)

// Every face reads one link state: the links list, the records'
// availability, the refund request and the recipient's page agree for a
// link that waits, was used, revoked, or whose gift was cancelled or
// declined by staff. A cancelled or declined gift's link is never active.
func TestEveryFaceReadsOneLinkState(t *testing.T) {
	t.Parallel()
	g := newLinkGifts(t)
	ctx := context.Background()
	links := g.env.App.GiftLinks

	waiting, waitingToken := g.gift("waiting")
	cancelled, cancelledToken := g.gift("cancelled")
	_, err := g.env.App.Gifts.MoveGift(ctx, gift.GiftMove{SendID: cancelled, To: gift.SendCancelled, Reason: "test"})
	require.NoError(t, err)
	declined, declinedToken := g.gift("declined")
	_, err = g.env.App.Gifts.MoveGift(ctx, gift.GiftMove{SendID: declined, To: gift.SendDeclined, Reason: "staff"})
	require.NoError(t, err)
	confirmed, confirmedToken := g.gift("confirmed")
	_, err = links.Confirm(ctx, confirmedToken, ip, goodAddress())
	require.NoError(t, err)
	revoked, revokedToken := g.gift("revoked")
	_, err = links.Revoke(ctx, g.owner, revoked, 1)
	require.NoError(t, err)

	want := map[string]struct {
		state  giftlink.LinkState
		reason giftlink.Reason
		page   giftlink.PageState
		token  string
	}{
		waiting:   {giftlink.LinkActive, "", giftlink.PageOpen, waitingToken},
		cancelled: {giftlink.LinkRevoked, giftlink.ReasonGiftCancelled, giftlink.PageClosed, cancelledToken},
		declined:  {giftlink.LinkUsed, giftlink.ReasonLinkUsed, giftlink.PageClosed, declinedToken},
		confirmed: {giftlink.LinkUsed, giftlink.ReasonLinkUsed, giftlink.PageUsed, confirmedToken},
		revoked:   {giftlink.LinkRevoked, giftlink.ReasonLinkRevoked, giftlink.PageRevoked, revokedToken},
	}

	list, err := links.CampaignLinks(ctx, g.owner, g.campaign)
	require.NoError(t, err)
	seen := 0
	for _, l := range list {
		w, ok := want[l.SendID]
		if !ok {
			continue
		}
		seen++
		require.Equal(t, w.state, l.LinkState, "links list: %s", l.SendID)
		one, err := links.SendLink(ctx, g.owner, l.SendID)
		require.NoError(t, err)
		require.Equal(t, w.state, one.LinkState, "one link: %s", l.SendID)
	}
	require.Equal(t, len(want), seen)

	records, err := links.Records(ctx, g.key, g.campaign, giftlink.RecordsQuery{})
	require.NoError(t, err)
	for _, r := range records.Records {
		w, ok := want[r.GiftID]
		if !ok {
			continue
		}
		require.Equal(t, w.reason, r.AvailabilityReason, "records: %s", r.GiftID)
		require.Equal(t, w.state == giftlink.LinkActive, r.Availability == giftlink.Ready, "records: %s", r.GiftID)
	}

	for id, w := range want {
		page, err := links.Open(ctx, w.token, ip)
		require.NoError(t, err)
		require.Equal(t, w.page, page.State, "recipient page: %s", id)
		if id == waiting || id == revoked { // a revoked, unused link's gift is refundable
			continue
		}
		_, err = links.RequestRefund(ctx, g.owner, id, "not needed")
		e := apptest.RequireCode(t, err, core.CodeInvalidRequestState)
		require.NotContains(t, e.Message, "is active", "refund request: %s", id)
	}
}
