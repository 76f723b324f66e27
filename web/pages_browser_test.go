package web_test

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// personPage is one page for people, as the phone test reaches it: a new
// page is one line in peoplePages.
type personPage struct {
	// Name names the page's screenshots, <name>-<width>.png.
	Name string
	// Public pages are opened before signing in.
	Public bool
	// Developer pages (keys, webhooks) may show event names and IDs.
	Developer bool
	// Path is the page's address in the world.
	Path func(w *pagesWorld) string
	// Reach, when set instead of Path, brings the browser to a page that
	// answers a form.
	Reach func(b *browser, w *pagesWorld)
}

// at is a Path that does not depend on the world.
func at(path string) func(*pagesWorld) string { return func(*pagesWorld) string { return path } }

// peoplePages is every page for people: public ones first, then the pages
// of a signed-in owner.
var peoplePages = []personPage{
	{Name: "sign-in", Public: true, Path: at("/login")},
	{Name: "invite", Public: true, Path: func(w *pagesWorld) string { return w.Invite }},
	{Name: "gift-link", Public: true, Path: func(w *pagesWorld) string { return w.GiftLink }},
	{Name: "gift-link-done", Public: true, Reach: confirmFreshLink},
	{Name: "gift-link-ended", Public: true, Path: func(w *pagesWorld) string { return w.UsedLink }},
	{Name: "unsubscribe", Public: true, Path: func(w *pagesWorld) string { return w.Unsubscribe }},
	{Name: "unsubscribe-done", Public: true, Reach: stopDigest},
	{Name: "not-found", Public: true, Path: at("/no-such-page")},
	{Name: "home", Path: at("/")},
	{Name: "campaigns", Path: at("/campaigns")},
	{Name: "playbook", Path: func(w *pagesWorld) string { return w.Playbook }},
	{Name: "review", Path: func(w *pagesWorld) string { return w.Review }},
	{Name: "queue", Path: at("/?queue=")},
	{Name: "playbook-queue", Path: func(w *pagesWorld) string { return w.PlaybookQueue }},
	{Name: "gift", Path: func(w *pagesWorld) string { return w.Gift }},
	{Name: "gift-declined", Path: func(w *pagesWorld) string { return w.DeclinedGift }},
	{Name: "gift-missing", Path: at("/gifts/send_0000000000000000")},
	{Name: "balance", Path: at("/balance")},
	{Name: "top-up", Path: func(w *pagesWorld) string { return w.TopUp }},
	{Name: "billing", Path: at("/billing")},
	{Name: "invoice", Path: func(w *pagesWorld) string { return w.Invoice }},
	{Name: "reports", Path: at("/reports")},
	{Name: "team", Path: at("/team")},
	{Name: "activity", Path: at("/activity")},
	{Name: "keys", Developer: true, Path: at("/settings/keys")},
	{Name: "webhooks", Developer: true, Path: at("/settings/webhooks")},
	{Name: "deliveries", Developer: true, Path: func(w *pagesWorld) string { return w.Deliveries }},
	{Name: "settings", Path: at("/settings")},
	{Name: "artwork", Path: at("/artwork")},
	{Name: "import", Path: func(w *pagesWorld) string { return w.Import }},
	{Name: "signed-in-not-found", Path: at("/no-such-page")},
}

// confirmFreshLink confirms an address on a new gift link, in the browser,
// and so ends on the thank-you page.
func confirmFreshLink(b *browser, w *pagesWorld) {
	_, path := w.h.linkGift(longName)
	b.open(w.h.site + path)
	for id, v := range map[string]string{"street": "12 Byron Way", "city": "Springfield", "state": "IL", "zip": "62701"} {
		b.fill(id, v)
	}
	require.EqualValues(b.t, 200, b.submit(`#address-form button[type=submit]`))
}

// stopDigest presses the unsubscribe page's button, in the browser, and so
// ends on the page that says the emails stopped.
func stopDigest(b *browser, w *pagesWorld) {
	b.open(w.h.site + w.Unsubscribe)
	require.EqualValues(b.t, 200, b.submit(`form button[type=submit]`))
}

// widths are a phone's and a laptop's, with their heights.
var widths = []struct{ W, H int64 }{{390, 844}, {1280, 800}}

// Every page for people fits a phone (390 px) and a laptop (1280 px): the
// page never scrolls sideways, nor does any table, code block or their
// wrapper; on the phone, the menu folds into one row and every button,
// disclosure and link in a list is at least 44 px tall.
func TestBrowserEveryPageFitsAPhoneAndALaptop(t *testing.T) {
	t.Parallel()
	h := newHooks(t)
	w := h.pagesWorld()
	for _, size := range widths {
		var b *browser
		for i, p := range peoplePages {
			b = w.browserFor(b, i, size.W, size.H)
			b.reach(p, w)
			name := fmt.Sprintf("%s-%d", p.Name, size.W)
			b.screenshot(name)
			require.Empty(t, b.overflows(), "%s: nothing scrolls sideways", name)
			if size.W < 640 {
				require.Empty(t, b.smallTargets(), "%s: touch targets are at least 44 px tall", name)
			}
		}
		if size.W < 640 {
			b.requireFoldedMenu(h.site)
		}
	}
}

// pagesPerBrowser bounds the pages one browser opens, so that each stays
// well within browsertest.Timeout on a busy machine.
const pagesPerBrowser = 6

// browserFor is the browser for the i-th of peoplePages at width×height:
// b, or, every pagesPerBrowser pages and at the first page for people
// signed in, a new browser (signed in as the owner for such pages) in place
// of b, which closes.
func (w *pagesWorld) browserFor(b *browser, i int, width, height int64) *browser {
	p := peoplePages[i]
	firstSignedIn := !p.Public && (i == 0 || peoplePages[i-1].Public)
	if b != nil && i%pagesPerBrowser != 0 && !firstSignedIn {
		return b
	}
	if b != nil {
		require.NoError(w.h.t, chromedp.Cancel(b.ctx), "close the previous browser")
	}
	b = newBrowser(w.h.t)
	b.do(chromedp.EmulateViewport(width, height))
	if !p.Public {
		b.signIn(w.h.site, w.h.env.OwnerEmail)
	}
	return b
}

// reach brings the browser to page p of world w.
func (b *browser) reach(p personPage, w *pagesWorld) {
	b.t.Helper()
	if p.Reach != nil {
		p.Reach(b, w)
		return
	}
	b.open(w.h.site + p.Path(w))
}

// overflowScript lists what scrolls sideways: the page itself, and every
// table, pre or element that clips or scrolls its overflow whose content
// is wider than its box (the 1-pixel visually-hidden texts, and the text
// fields, which scroll a long value inside themselves, aside).
const overflowScript = `(() => {
  const out = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) out.push("the page: " + root.scrollWidth + " > " + root.clientWidth);
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "");
  for (const el of document.body.querySelectorAll("*")) {
    if (el.clientWidth <= 1 || el.closest(".visually-hidden") || !el.checkVisibility()) continue;
    if (["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName)) continue; // a field scrolls its own text
    const s = getComputedStyle(el);
    const clips = ["auto", "scroll", "hidden", "clip"].includes(s.overflowX);
    if (!clips && el.tagName !== "TABLE" && el.tagName !== "PRE") continue;
    if (el.scrollWidth > el.clientWidth) out.push(name(el) + ": " + el.scrollWidth + " > " + el.clientWidth);
  }
  return out;
})()`

// overflows lists what scrolls sideways on the page now.
func (b *browser) overflows() []string {
	b.t.Helper()
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](overflowScript))
	require.NoError(b.t, err)
	return out
}

// smallTargetsScript lists the visible touch targets under 44 px tall:
// buttons, disclosures, the menu's items and links in a table's rows.
const smallTargetsScript = `(() => {
  const out = [];
  const sel = "main button, main .button, main summary, main td a, main th a, .menu-button, .site-nav a, .signout button, .switcher button";
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (!el.checkVisibility() || r.width === 0 || el.closest(".visually-hidden")) continue;
    if (r.height < 44) out.push((el.textContent || "").trim().slice(0, 40) + ": " + Math.round(r.height) + " px");
  }
  return out;
})()`

// smallTargets lists the touch targets under 44 px tall on the page now.
func (b *browser) smallTargets() []string {
	b.t.Helper()
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](smallTargetsScript))
	require.NoError(b.t, err)
	return out
}

// requireFoldedMenu checks the phone's menu on the home page: one row
// with a Menu button, which unfolds every link, each 44 px tall or more.
func (b *browser) requireFoldedMenu(site string) {
	b.t.Helper()
	b.open(site + "/")
	height := func() int64 {
		v, err := chromedp.Run(b.ctx, chromedp.Evaluate[int64](`Math.round(document.querySelector(".site-header").getBoundingClientRect().height)`))
		require.NoError(b.t, err)
		return v
	}
	require.LessOrEqual(b.t, height(), int64(80), "the folded menu is one row, at most 80 px tall")
	require.False(b.t, b.visible(".site-nav"), "the links are folded away")
	b.click(".menu-button")
	require.True(b.t, b.visible(".site-nav"), "the Menu button unfolds the links")
	require.True(b.t, b.visible(".signout button"), "and the sign-out button")
	require.Empty(b.t, b.smallTargets())
	require.Empty(b.t, b.overflows())
	b.screenshot("menu-390")
}

// visible reports whether the element matched by sel is shown now (not
// hidden, nor inside a folded disclosure).
func (b *browser) visible(sel string) bool {
	b.t.Helper()
	ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(() => { const el = document.querySelector(`+jsString(sel)+`); return !!el && el.checkVisibility(); })()`))
	require.NoError(b.t, err)
	return ok
}
