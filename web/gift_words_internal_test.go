package web

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/tracking"
)

// Every feed type has a sentence of its own, built from its data.
func TestEventSentence(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		typ  core.EventType
		data map[string]any
		want string
	}{
		{core.EventSendCreated, map[string]any{"status": "ready"}, "Gift created"},
		{core.EventSendAutoApproved, nil, "Approved by auto-approve"},
		{core.EventSendLinkOpened, nil, "Recipient opened the link"},
		{core.EventSendAddressConfirmed, nil, "Address confirmed"},
		{core.EventSendGiftLinkChanged, map[string]any{"change": "regift"}, "Regifted: a new link for someone else"},
		{core.EventSendGiftLinkChanged, map[string]any{"change": "message"}, "Link message or branding changed"},
		{core.EventSendGiftLinkChanged, map[string]any{"change": "revoke"}, "Link revoked"},
		{core.EventSendGiftLinkChanged, nil, "Gift link changed"},
		{core.EventSendStatusChanged, map[string]any{"from": "ready", "to": "in_production"}, "Status: Ready → In production"},
		{core.EventSendStatusChanged, map[string]any{"from": "ready", "to": "cancelled", "reason": "duplicate"}, "Status: Ready → Cancelled (duplicate)"},
		{core.EventSendOrderChanged, map[string]any{"from": "none", "to": "placed"}, "Order: Not placed → Placed"},
		{core.EventSendTrackingChanged, map[string]any{"carrier": "UPS", "trackingNumber": "1Z9", "trackingUrl": "https://x.example"}, "Tracking: UPS 1Z9"},
		{core.EventSendOutcomeReported, map[string]any{"outcome": "meeting_booked", "source": "crm"}, "Outcome reported: Meeting booked"},
	} {
		require.Equal(t, c.want, eventSentence(tracking.EventItem{Type: c.typ, Data: c.data}), c.typ)
	}
	for _, typ := range tracking.FeedTypes {
		require.NotEqual(t, string(typ), eventSentence(tracking.EventItem{Type: typ}), "%s has words", typ)
	}
}

// Every status has a name and a badge.
func TestGiftStatusWords(t *testing.T) {
	t.Parallel()
	for _, s := range []gift.SendStatus{
		gift.SendAwaitingAddress, gift.SendReady, gift.SendInProduction, gift.SendShipped,
		gift.SendDelivered, gift.SendDeclined, gift.SendExpired, gift.SendCancelled,
	} {
		require.NotEqual(t, string(s), giftStatusName(s))
		require.NotEmpty(t, giftStatusBadge(s))
	}
	require.Equal(t, "None yet", linkStateText(gift.Gift{Recipient: gift.GiftRecipient{AddressMode: gift.AddressConfirm}}, nil))
}
