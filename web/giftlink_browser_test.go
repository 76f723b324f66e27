package web_test

import (
	"fmt"
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

// The address form with three problems, on a phone and on a laptop: the
// summary takes the focus and links each field, each field is marked
// invalid with its message, what was typed stays, and nothing scrolls
// sideways. Screenshots: gift-link-three-errors-390 and -1280.
func TestBrowserGiftLinkAddressFormShowsThreeErrors(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	h := newHarness(t)
	sendID, path := h.linkGift("Ada Lovelace")

	for _, width := range []int64{390, 1280} {
		b.do(chromedp.EmulateViewport(width, 844))
		b.open(h.site + path)
		b.do(chromedp.Clear(chromedp.ID("street")))
		b.fill("city", "Springfield")
		b.fill("state", "Atlantis")
		b.fill("zip", "6270")
		require.EqualValues(t, 400, b.submit(`#address-form button[type=submit]`))
		requireBrowserProblems(t, b, map[string]string{
			"street": "Enter the street address.",
			"state":  "is not a US state",
			"zip":    "A ZIP code is 5 digits",
		})
		require.Equal(t, "Atlantis", b.value("state"), "what was typed is kept")
		require.Equal(t, "6270", b.value("zip"))
		require.Equal(t, "Springfield", b.value("city"))
		b.screenshot(fmt.Sprintf("gift-link-three-errors-%d", width))
		b.click(`#problem a[href="#zip"]`)
		require.Equal(t, "zip", b.poll(`document.activeElement.id === "zip" && document.activeElement.id`), "a summary link focuses its field")
	}
	require.Equal(t, gift.SendAwaitingAddress, h.giftStatus(sendID))
}

// requireBrowserProblems holds a form drawn after several problems, as a
// person's browser has it: the error summary has the focus and links each
// field; each field is aria-invalid, described by its message; the page
// does not scroll sideways.
func requireBrowserProblems(t *testing.T, b *browser, messages map[string]string) {
	t.Helper()
	require.Equal(t, "problem", b.poll(`document.activeElement && document.activeElement.id`), "the summary takes the focus")
	links, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#problem a")].map(a => a.getAttribute("href"))`))
	require.NoError(t, err)
	require.Len(t, links, len(messages), "one link per problem")
	for f, msg := range messages {
		require.Contains(t, links, "#"+f)
		require.Contains(t, b.text("#"+f+"-error"), msg)
		state, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(() => { const e = document.getElementById(`+jsString(f)+`);
  return e.getAttribute("aria-invalid") + " " + e.getAttribute("aria-describedby"); })()`))
		require.NoError(t, err)
		require.Regexp(t, `^true (.* )?`+f+`-error$`, state, "%s is marked invalid and described by its message", f)
	}
	invalid, err := chromedp.Run(b.ctx, chromedp.Evaluate[int64](`document.querySelectorAll("[aria-invalid=true]").length`))
	require.NoError(t, err)
	require.EqualValues(t, len(messages), invalid)
	require.Equal(t, "true", b.poll(`String(document.documentElement.scrollWidth <= window.innerWidth)`), "no sideways scrolling")
}
