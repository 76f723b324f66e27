package web_test

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// A declined card-paid gift's page fits a phone and a laptop: it says
// where the money is, offers Regift and a refund to the owner, and shows
// no address awaited; screenshots at 390 and 1280 px.
func TestBrowserDeclinedCardPaidGift(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	_, id := h.declinedCardGift(owner)
	b := newBrowser(t)
	b.signIn(h.site, h.env.OwnerEmail)
	for _, size := range widths {
		b.do(chromedp.EmulateViewport(size.W, size.H))
		b.open(h.site + "/gifts/" + id)
		scroll, err := chromedp.Run(b.ctx, chromedp.Evaluate[int64](`document.documentElement.scrollWidth`))
		require.NoError(t, err)
		require.LessOrEqual(t, scroll, size.W, "no sideways scrolling at %d px", size.W)
		require.Contains(t, b.text("#gift-money"), "is held for it until you choose")
		require.Contains(t, b.text("#gift-address"), "Not needed: the recipient declined the gift.")
		require.Contains(t, b.text("#gift-regift"), "Regift")
		require.Contains(t, b.text("#gift-refund"), "Request a refund")
		b.screenshot(fmt.Sprintf("gift-declined-card-%d", size.W))
	}
}
