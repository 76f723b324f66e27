package main

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/internal/browsertest"
)

// shellLook is a script describing how the shell's header is drawn (computed
// styles), to compare a page of the web app with the consent page.
const shellLook = `JSON.stringify([document.body, document.querySelector(".site-header"), document.querySelector(".site-header a.brand"), document.querySelector(".site-footer")]
	.map(e => { const c = getComputedStyle(e); return [e.tagName, e.className, c.backgroundColor, c.color, c.fontFamily, c.fontSize, c.fontWeight, c.borderBottom]; }))`

// TestOAuthConsentInBrowser drives consent once in headless Chromium: sign
// in, open the authorization URL, see the consent page in the web app's
// shell, untick gifts:write, Allow, land on the client's loopback callback,
// and exchange the code.
func TestOAuthConsentInBrowser(t *testing.T) {
	t.Parallel()
	s := newOAuthSite(t)
	s.env.Clock.Set(time.Now()) // the browser drops a session cookie that expired at the fake epoch
	ctx := browsertest.New(t)

	got := make(chan url.Values, 1)
	callback := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/callback" {
			select {
			case got <- r.URL.Query():
			default:
			}
		}
		_, _ = w.Write([]byte("<!doctype html><title>done</title><p>You can close this window.</p>"))
	}))
	t.Cleanup(callback.Close)
	redirect := callback.URL + "/callback" // 127.0.0.1, another port than registered (RFC 8252)
	require.True(t, strings.HasPrefix(redirect, "http://127.0.0.1:"))

	// Sign in at /login.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(s.url+"/login"),
		chromedp.SendKeys(chromedp.ID("email"), s.env.OwnerEmail, chromedp.NodeVisible),
		chromedp.SendKeys(chromedp.ID("password"), apptest.Password, chromedp.NodeVisible),
	))
	res, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`form[action="/login"] button[type=submit]`), chromedp.NodeVisible))
	require.NoError(t, err)
	require.EqualValues(t, http.StatusOK, res.Status)
	loc, err := chromedp.Run(ctx, chromedp.Location())
	require.NoError(t, err)
	if loc != s.url+"/" {
		body, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("main"), chromedp.NodeVisible))
		t.Fatalf("not signed in, at %s: %s", loc, body)
	}
	appLook, err := chromedp.Run(ctx, chromedp.Evaluate[string](shellLook))
	require.NoError(t, err)

	query := s.authorizeQuery(func(q url.Values) { q.Set("redirect_uri", redirect) })
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(s.url+query)))
	heading, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("h1"), chromedp.NodeVisible))
	require.NoError(t, err)
	require.Contains(t, heading, "Connect Test Desktop to Giftwell")

	// The consent page is drawn in the web app's shell: the brand header with
	// the person, the workspace and its test-mode marker, the site nav (a
	// session exists), and the app's stylesheet and script, loaded despite
	// the page's strict CSP, giving the same look as the app's home page.
	brand, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(".site-header a.brand"), chromedp.NodeVisible))
	require.NoError(t, err)
	require.Equal(t, "Giftwell", brand)
	marker, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(".site-header .workspace .badge-test"), chromedp.NodeVisible))
	require.NoError(t, err)
	require.Equal(t, "Test mode", marker)
	workspace, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(".site-header .workspace-name"), chromedp.NodeVisible))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(workspace, "Workspace "), workspace)
	who, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(".site-header .who"), chromedp.NodeVisible))
	require.NoError(t, err)
	require.Equal(t, s.env.OwnerEmail, who)
	navLinks, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`[...document.querySelectorAll("nav.site-nav a")].map(a => a.getAttribute("href"))`))
	require.NoError(t, err)
	require.Contains(t, navLinks, "/campaigns")
	require.Contains(t, navLinks, "/settings")
	styled, err := chromedp.Run(ctx, chromedp.Evaluate[bool](
		`[...document.styleSheets].some(s => s.href && new URL(s.href).pathname === "/static/app.css" && s.cssRules.length > 0)`))
	require.NoError(t, err)
	require.True(t, styled, "the app's stylesheet is loaded")
	scripted, err := chromedp.Run(ctx, chromedp.Evaluate[bool](
		`performance.getEntriesByType("resource").some(e => new URL(e.name).pathname === "/static/app.js")`))
	require.NoError(t, err)
	require.True(t, scripted, "the app's script is loaded")
	consentLook, err := chromedp.Run(ctx, chromedp.Evaluate[string](shellLook))
	require.NoError(t, err)
	require.Equal(t, appLook, consentLook, "the header looks as on the app's home page")
	switchers, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(".site-header form.switcher").length`))
	require.NoError(t, err)
	require.Zero(t, switchers, "the consent form picks the workspace, not the header")

	browsertest.Screenshot(t, ctx, "consent")

	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`input[value="gifts:write"]`), chromedp.NodeVisible)))
	res, err = chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`button[value="allow"]`), chromedp.NodeVisible))
	require.NoError(t, err)
	require.EqualValues(t, http.StatusOK, res.Status)

	var q url.Values
	select {
	case q = <-got:
	case <-time.After(30 * time.Second):
		t.Fatal("the browser never reached the loopback callback")
	}
	require.Equal(t, "state-0123456789", q.Get("state"))
	require.Equal(t, s.url, q.Get("iss"))
	require.NotEmpty(t, q.Get("code"))

	status, tok, _ := s.tokenRequest(t, url.Values{
		"grant_type": {"authorization_code"}, "code": {q.Get("code")}, "client_id": {s.client},
		"redirect_uri": {redirect}, "code_verifier": {s.verifer}, "resource": {s.url + "/mcp"},
	})
	require.Equal(t, http.StatusOK, status, tok)
	scopes := strings.Fields(tok["scope"].(string))
	require.Contains(t, scopes, "gifts:read")
	require.Contains(t, scopes, "gifts:links:read")
	require.NotContains(t, scopes, "gifts:write")
}
