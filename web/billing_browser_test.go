package web_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/giftwell/giftwell/core/gift"

	"github.com/stretchr/testify/require"
)

// Pay and launch in a browser: the review page's button, the sandbox's
// test payment, then the launch page's script drives launch to the end
// with its progress bar; the billing page lists the invoice.
func TestBrowserPayAndLaunch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	b := newBrowser(t)
	b.signIn(h.site, h.env.OwnerEmail)
	batch := h.env.NewBatch(t, h.ownerPrincipal(), 7)

	b.open(h.site + "/campaigns/" + batch.ID + "?review=1")
	require.Contains(t, b.text("#checkout-note"), "$")
	require.EqualValues(t, 200, b.submit("#pay-and-launch"))
	require.Regexp(t, `/sandbox/pay/sbx_`, b.location())
	b.screenshot("sandbox-checkout")
	require.EqualValues(t, 200, b.submit("#sandbox-pay"))
	// The page submits its next step by itself, page after page, until done.
	deadline := time.Now().Add(30 * time.Second)
	for {
		done, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`document.querySelector("#launch-done") !== null`))
		if err == nil && done {
			break
		}
		require.True(t, time.Now().Before(deadline), "launch did not finish")
		time.Sleep(100 * time.Millisecond)
	}
	require.Equal(t, "7", b.poll(`document.querySelector("#launch-progress").getAttribute("value")`))
	b.screenshot("launch-done")

	gifts, err := h.env.App.Gifts.List(context.Background(), h.ownerPrincipal(), gift.GiftFilter{CampaignID: batch.ID, Limit: 50})
	require.NoError(t, err)
	require.Len(t, gifts.Items, 7)
	b.open(h.site + "/billing")
	require.Contains(t, b.text("#checkouts"), "Paid and launched")
	require.Contains(t, b.text("#checkouts"), "PDF")

	// The invoice fits a phone and a laptop, in words for people: its rows
	// stack on a phone, each gift is named by its status, not its ID.
	invoice := b.poll(`(document.querySelector('a[href*="/billing/invoices/chk_"]:not([href$="/pdf"])') || {}).href || ""`)
	for _, width := range []int64{390, 1280} {
		b.do(chromedp.EmulateViewport(width, 844))
		b.open(invoice)
		scroll, err := chromedp.Run(b.ctx, chromedp.Evaluate[int64](`document.documentElement.scrollWidth`))
		require.NoError(t, err)
		require.LessOrEqual(t, scroll, width, "no sideways scrolling at %d px", width)
		text := b.text("main")
		require.NotContains(t, text, "send_", "no gift IDs on the invoice")
		require.Contains(t, b.text("#invoice-items"), "Awaiting address")
		b.screenshot(fmt.Sprintf("invoice-%d", width))
	}
}
