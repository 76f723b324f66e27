package web_test

import (
	"context"
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
	require.Contains(t, b.text("#checkouts"), "consumed")
	require.Contains(t, b.text("#checkouts"), "PDF")
}
