package web

import (
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
)

// usedLinkWords are what a used link's page says to a recipient who opens
// it again: what happened and where their gift is, calmly. Like every end
// state it names neither the gift, the sender nor the address. ok is false
// when the page does not know the gift's status.
func usedLinkWords(p giftlink.Page) (words [2]string, ok bool) {
	if p.State != giftlink.PageUsed || p.GiftStatus == "" {
		return words, false
	}
	const contact = " If that was not you, or something looks wrong, contact the person who sent you the link."
	test := ""
	if p.Test {
		test = " This is a test gift: nothing ships."
	}
	switch p.GiftStatus {
	case gift.SendDeclined:
		return [2]string{"This gift was declined", "The gift was declined with this link, so nothing will be sent and there is nothing more to do." + contact}, true
	case gift.SendShipped:
		return [2]string{"Your gift is on its way", "An address was confirmed with this link and the gift has shipped to it." + test + contact}, true
	case gift.SendDelivered:
		return [2]string{"Your gift was delivered", "An address was confirmed with this link and the gift has been delivered to it." + test + contact}, true
	case gift.SendCancelled, gift.SendExpired:
		return [2]string{"This gift is no longer available", "The sender withdrew this gift after the link was used, so nothing will be sent." + contact}, true
	}
	return [2]string{"Your address is confirmed", "An address was confirmed with this link and the gift is being prepared. It ships to that address; there is nothing more to do." + test + contact}, true
}
