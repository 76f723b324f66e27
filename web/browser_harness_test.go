package web_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/internal/browsertest"
)

// browser is one headless Chromium with its own profile, so its own
// cookies: two browsers are two people.
type browser struct {
	t   *testing.T
	ctx context.Context
}

// newBrowser starts Chromium for the test (internal/browsertest: skipped
// without Chromium on a workstation, failed in CI).
func newBrowser(t *testing.T) *browser {
	t.Helper()
	return &browser{t: t, ctx: browsertest.New(t)}
}

// do runs steps and fails the test on an error.
func (b *browser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	require.NoError(b.t, chromedp.Do(b.ctx, steps...))
}

// open loads url and returns the address the browser ends at.
func (b *browser) open(url string) string {
	b.t.Helper()
	b.do(chromedp.Navigate(url))
	return b.location()
}

// submit clicks the button matched by sel and waits for the page it leads
// to; it returns that page's HTTP status.
func (b *browser) submit(sel string) int64 {
	b.t.Helper()
	res, err := chromedp.RunResponse(b.ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
	require.NoError(b.t, err)
	return res.Status
}

// click clicks the element matched by sel, without waiting for a page.
func (b *browser) click(sel string) {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// reload reloads the page and returns its HTTP status.
func (b *browser) reload() int64 {
	b.t.Helper()
	res, err := chromedp.RunResponse(b.ctx, chromedp.Reload())
	require.NoError(b.t, err)
	return res.Status
}

// value is the current value of the input with the id.
func (b *browser) value(id string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Value(chromedp.ID(id)))
	require.NoError(b.t, err)
	return v
}

// fill types value into the input with the id.
func (b *browser) fill(id, value string) {
	b.t.Helper()
	b.do(chromedp.SendKeys(chromedp.ID(id), value, chromedp.NodeVisible))
}

func (b *browser) location() string {
	b.t.Helper()
	loc, err := chromedp.Run(b.ctx, chromedp.Location())
	require.NoError(b.t, err)
	return loc
}

// text is the visible text of the element matched by sel.
func (b *browser) text(sel string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(sel), chromedp.NodeVisible))
	require.NoError(b.t, err)
	return strings.TrimSpace(s)
}

// poll waits until the JavaScript expression is truthy and returns it.
func (b *browser) poll(expression string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Poll[string](expression))
	require.NoError(b.t, err)
	return v
}

// exists reports whether an element matches sel now, without waiting.
func (b *browser) exists(sel string) bool {
	b.t.Helper()
	ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`document.querySelector(`+jsString(sel)+`) !== null`))
	require.NoError(b.t, err)
	return ok
}

// signIn signs in through the sign-in page and lands on the home page.
func (b *browser) signIn(site, email string) {
	b.t.Helper()
	b.open(site + "/login")
	b.fill("email", email)
	b.fill("password", apptest.Password)
	require.EqualValues(b.t, 200, b.submit(`form[action="/login"] button[type=submit]`))
	require.Equal(b.t, site+"/", b.location())
}

// screenshot saves the whole page as a PNG (browsertest.Screenshot).
func (b *browser) screenshot(name string) {
	b.t.Helper()
	browsertest.Screenshot(b.t, b.ctx, name)
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	if strings.ContainsAny(s, "`\\$") {
		panic(errors.New("jsString: unsupported character in " + s))
	}
	return "`" + s + "`"
}
