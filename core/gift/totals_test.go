package gift_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/gift"
)

// Every figure follows its one definition over gifts in every state: a
// cancelled gift counts only as cancelled; gifts are sent, declined and
// expired together; a declined card-paid gift's money is held until it is
// refunded, a declined balance-paid one is back at once; committed is
// what did not come back, and held the part of it that pays for no gift on
// its way.
func TestTotalsFollowOneDefinition(t *testing.T) {
	t.Parallel()
	var tot gift.Totals
	for _, g := range []struct {
		st   gift.SendStatus
		by   gift.FundedBy
		back bool
	}{
		{gift.SendAwaitingAddress, gift.FundedByCheckout, false}, // sent 100
		{gift.SendReady, gift.FundedByBalance, false},            // sent 200
		{gift.SendInProduction, gift.FundedByBalance, false},     // sent 400
		{gift.SendShipped, gift.FundedByCheckout, false},         // sent 800
		{gift.SendDelivered, gift.FundedByBalance, false},        // sent 1,600
		{gift.SendDeclined, gift.FundedByCheckout, false},        // held 3,200
		{gift.SendDeclined, gift.FundedByCheckout, true},         // refunded to the card 6,400
		{gift.SendDeclined, gift.FundedByBalance, false},         // credited 12,800
		{gift.SendExpired, gift.FundedByBalance, false},          // held 25,600
		{gift.SendExpired, gift.FundedByCheckout, true},          // refunded 51,200
		{gift.SendCancelled, gift.FundedByBalance, true},         // counts nowhere: 102,400
	} {
		cents := int64(100) << tot.Gifts
		if g.st == gift.SendCancelled {
			cents = 102_400
		}
		tot.Add(g.st, g.by, g.back, 1, cents)
	}
	require.Equal(t, gift.Totals{
		Gifts: 10, GiftsCents: 102_300,
		Sent: 5, SentCents: 3_100,
		Declined: 3, Expired: 2,
		Refunded: 3, RefundedCents: 6_400 + 12_800 + 51_200,
		CommittedCents: 3_100 + 3_200 + 25_600, HeldCents: 3_200 + 25_600,
		Cancelled: 1,
	}, tot)
	require.Equal(t, tot.GiftsCents, tot.CommittedCents+tot.RefundedCents)
	require.Equal(t, tot.CommittedCents, tot.SentCents+tot.HeldCents)
	require.Equal(t, tot.Gifts, tot.Sent+tot.Declined+tot.Expired)

	require.Equal(t, gift.MoneyHeld, gift.MoneyOf(gift.SendDeclined, gift.FundedByCheckout, false))
	require.Equal(t, gift.MoneyBack, gift.MoneyOf(gift.SendDeclined, gift.FundedByBalance, false), "a declined balance gift is credited as it is declined")
	require.Equal(t, gift.MoneyHeld, gift.MoneyOf(gift.SendExpired, gift.FundedByBalance, false), "expiry credits nothing by itself")
	require.Equal(t, gift.MoneySpent, gift.MoneyOf(gift.SendAwaitingAddress, gift.FundedByCheckout, false))
	require.Equal(t, gift.MoneyNone, gift.MoneyOf(gift.SendCancelled, gift.FundedByBalance, true))
}
