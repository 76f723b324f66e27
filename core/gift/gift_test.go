package gift_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/core/gift"
)

// A gift only moves forward: awaiting_address to ready (or an end), ready
// to production (or declined, cancelled), then shipped and delivered;
// the ends move nowhere. Its order state follows its status.
func TestGiftStatusesMoveForwardOnly(t *testing.T) {
	t.Parallel()
	next := map[gift.SendStatus][]gift.SendStatus{
		gift.SendAwaitingAddress: {gift.SendReady, gift.SendDeclined, gift.SendExpired, gift.SendCancelled},
		gift.SendReady:           {gift.SendInProduction, gift.SendDeclined, gift.SendCancelled},
		gift.SendInProduction:    {gift.SendShipped},
		gift.SendShipped:         {gift.SendDelivered},
	}
	for _, from := range gift.SendStatuses {
		require.True(t, from.Valid())
		for _, to := range gift.SendStatuses {
			want := false
			for _, n := range next[from] {
				want = want || n == to
			}
			require.Equal(t, want, from.CanMove(to), "%s -> %s", from, to)
		}
	}
	require.False(t, gift.SendStatus("lost").Valid())
	for s, o := range map[gift.SendStatus]gift.OrderState{
		gift.SendAwaitingAddress: gift.OrderNone, gift.SendReady: gift.OrderNone, gift.SendInProduction: gift.OrderPlaced,
		gift.SendShipped: gift.OrderShipped, gift.SendDelivered: gift.OrderDelivered, gift.SendCancelled: gift.OrderNone,
	} {
		require.Equal(t, o, gift.OrderStateOf(s), s)
	}
}

// A gift's attribution is the campaign's, with the person's externalId
// over it and the gift's own values over both; the campaign's metadata is
// never changed by a gift's.
func TestAttributionOf(t *testing.T) {
	t.Parallel()
	campaign := gift.Attribution{ExternalID: "camp-1", Source: "hubspot", AccountID: "acc-1", Metadata: map[string]string{"team": "emea"}}
	got := gift.AttributionOf(campaign, "person-7", nil)
	require.Equal(t, gift.Attribution{ExternalID: "person-7", Source: "hubspot", AccountID: "acc-1", Metadata: map[string]string{"team": "emea"}}, got)

	own := &gift.Attribution{OpportunityID: "opp-9", Source: "salesforce", Metadata: map[string]string{"deal": "big"}}
	got = gift.AttributionOf(campaign, "", own)
	require.Equal(t, gift.Attribution{ExternalID: "camp-1", Source: "salesforce", AccountID: "acc-1", OpportunityID: "opp-9",
		Metadata: map[string]string{"team": "emea", "deal": "big"}}, got)
	require.Equal(t, map[string]string{"team": "emea"}, campaign.Metadata, "the campaign's metadata is untouched")

	got = gift.AttributionOf(gift.Attribution{}, "", &gift.Attribution{Metadata: map[string]string{"k": "v"}})
	require.Equal(t, map[string]string{"k": "v"}, got.Metadata)
}

// The blocker a gift shows: "Needs a photo" while its portrait waits and
// the gift is before production, nothing otherwise.
func TestGiftBlocker(t *testing.T) {
	t.Parallel()
	waiting := &artwork.Portrait{State: artwork.PortraitAwaitingPhoto}
	approved := &artwork.Portrait{State: artwork.PortraitApproved}
	for _, c := range []struct {
		g    gift.Gift
		want string
	}{
		{gift.Gift{Status: gift.SendReady}, ""},
		{gift.Gift{Status: gift.SendReady, Portrait: waiting}, gift.PortraitBlocker},
		{gift.Gift{Status: gift.SendAwaitingAddress, Portrait: waiting}, gift.PortraitBlocker},
		{gift.Gift{Status: gift.SendReady, Portrait: approved}, ""},
		{gift.Gift{Status: gift.SendCancelled, Portrait: waiting}, ""},
	} {
		require.Equal(t, c.want, c.g.Blocker(), "%s %v", c.g.Status, c.g.Portrait)
	}
	require.Equal(t, "Needs a photo", gift.PortraitBlocker)
}
