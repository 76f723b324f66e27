package web_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// screenshotEnv names the directory the gift pages' screenshots go to.
const screenshotEnv = "GIFTWELL_SCREENSHOT_DIR"

// saveScreenshot saves the whole page as name.png in $GIFTWELL_SCREENSHOT_DIR,
// and nothing when it is unset.
func (b *browser) saveScreenshot(name string) {
	b.t.Helper()
	dir := os.Getenv(screenshotEnv)
	if dir == "" {
		return
	}
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	require.NoError(b.t, err)
	require.NoError(b.t, os.MkdirAll(dir, 0o755))
	path := filepath.Join(dir, name+".png")
	require.NoError(b.t, os.WriteFile(path, png, 0o644))
	b.t.Logf("screenshot: %s", path)
}

// A signed-in person follows gifts: the home page says what waits, the campaign page
// lists its gifts, a gift's page shows its timeline, and an active link
// can be copied.
func TestBrowserGiftListAndTimeline(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	w := h.giftWorld()
	b := newBrowser(t)
	b.signIn(h.site, h.env.OwnerEmail)
	require.Contains(t, b.text("#wait-queue"), "1 person waits for approval")
	require.Contains(t, b.text("#wait-address"), "1 gift waits")
	require.Contains(t, b.text("#home-events"), "Tracking: UPS 1Z999AA10123456784")
	b.saveScreenshot("home-waits")

	b.open(h.site + "/campaigns/" + w.CampaignID)
	require.Contains(t, b.text(`#gifts tr[data-send="`+w.Bea+`"]`), "UPS 1Z999AA10123456784")
	require.Contains(t, b.text(`#gifts tr[data-send="`+w.Cy+`"]`), "Active until")
	requireNoTypedAddress(t, b.text("main"))
	b.do(chromedp.ScrollIntoView(chromedp.ID("gifts-title")))
	b.saveScreenshot("campaign-gifts")

	require.EqualValues(t, 200, b.submit(`#gifts a[href="/gifts/`+w.Ada+`"]`))
	require.Equal(t, h.site+"/gifts/"+w.Ada, b.location())
	timeline := b.text("#timeline")
	require.Contains(t, timeline, "Recipient opened the link")
	require.Contains(t, timeline, "Address confirmed")
	requireNoTypedAddress(t, b.text("main"))
	b.saveScreenshot("gift-timeline")

	b.open(h.site + "/gifts/" + w.Cy)
	b.click(`button[data-copy="gift-link-url"]`)
	status := b.poll(`document.querySelector('[data-copy-status="gift-link-url"]').textContent`)
	require.Contains(t, []string{"Copied", "Press Ctrl+C (⌘C) to copy"}, status)
	b.saveScreenshot("gift-active-link")
}
