package web_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/stretchr/testify/require"
)

func TestBrowserGiftLinkConfirmsAnAddress(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	h := newHarness(t)
	sendID, path := h.linkGift("Ada Lovelace")

	b.open(h.site + path)
	require.Equal(t, "This is a test gift: nothing will ship.", b.text("#test-banner"))
	require.Equal(t, "Hello Ada: <b>a gift</b> for you.", b.text("#landing-message"), "the welcome is drawn as text")
	require.Equal(t, "Ada Lovelace", b.value("name"), "the form starts with the recipient's name")
	b.fill("street", "12 Byron Way")
	b.fill("city", "Springfield")
	b.fill("state", "illinois")
	b.fill("zip", "6270")
	giftLinkScreenshot(b, "gift-link")
	require.EqualValues(t, 400, b.submit(`#address-form button[type=submit]`))
	require.Contains(t, b.text("#zip-error"), "A ZIP code is 5 digits (12345) or 9 digits (12345-6789).")
	require.Equal(t, "12 Byron Way", b.value("street"), "the typed values are kept")
	require.Equal(t, "6270", b.value("zip"))
	giftLinkScreenshot(b, "gift-link-bad-zip")
	require.Equal(t, gift.SendAwaitingAddress, h.giftStatus(sendID))

	b.do(chromedp.Clear(chromedp.ID("zip")))
	b.fill("zip", "62701-1234")
	require.EqualValues(t, 200, b.submit(`#address-form button[type=submit]`))
	require.Equal(t, "Thank you", b.text("h1"))
	require.Contains(t, b.text("#address"), "Springfield, IL 62701-1234")
	giftLinkScreenshot(b, "gift-link-confirmed")
	require.Equal(t, gift.SendReady, h.giftStatus(sendID))

	b.open(h.site + path)
	require.Equal(t, "Your address is confirmed", b.text("h1"), "a calm page for a link used already")
	require.False(t, b.exists("#address-form"))
}

// giftLinkScreenshot saves the whole page as name.png in
// GIFTWELL_SCREENSHOT_DIR when it is set, and writes nothing otherwise.
func giftLinkScreenshot(b *browser, name string) {
	b.t.Helper()
	dir := os.Getenv("GIFTWELL_SCREENSHOT_DIR")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	require.NoError(b.t, err)
	require.NoError(b.t, os.MkdirAll(dir, 0o755))
	p := filepath.Join(dir, name+".png")
	require.NoError(b.t, os.WriteFile(p, png, 0o644))
	b.t.Logf("screenshot: %s", p)
}
