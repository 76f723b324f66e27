package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestCrossSitePostsAreRefusedAndChangeNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.client()
	c.signIn(h.env.OwnerEmail)
	keys := h.keyCount()
	settingsBefore, err := h.env.App.Identity.WorkspaceSettings(context.Background(), c.principal())
	require.NoError(t, err)

	crossSite := [][]string{
		{"Sec-Fetch-Site", "cross-site", "Origin", "http://evil.example"},
		{"Sec-Fetch-Site", "cross-site", "Origin", ""},
		{"Sec-Fetch-Site", "same-site", "Origin", "http://sub.example.com"},
		{"Sec-Fetch-Site", "", "Origin", "http://evil.example"},
	}
	for _, headers := range crossSite {
		for path, form := range map[string]url.Values{
			"/settings/keys":                     {"name": {"Planted"}},
			"/settings":                          {"company": {"Evil Corp"}},
			"/team/invitations":                  {"email": {"spy@evil.example"}, "role": {"member"}},
			"/logout":                            nil,
			"/workspace/switch":                  {"workspace": {h.env.WorkspaceID}},
			"/login":                             {"email": {h.env.OwnerEmail}, "password": {apptest.Password}},
			"/invite/" + strings.Repeat("a", 64): {"email": {"spy@evil.example"}},
		} {
			res := c.post(path, form, headers...)
			require.Equal(t, http.StatusForbidden, res.StatusCode, "%s %v", path, headers)
			require.Contains(t, res.Body, "This form was sent from another site, so nothing was changed.")
			require.Nil(t, sessionCookie(res), "no cookie is set or cleared")
		}
	}

	require.Equal(t, keys, h.keyCount())
	settingsAfter, err := h.env.App.Identity.WorkspaceSettings(context.Background(), c.principal())
	require.NoError(t, err)
	require.Equal(t, settingsBefore, settingsAfter)
	invitations, err := h.env.App.Identity.ListTeamInvitations(context.Background(), c.principal())
	require.NoError(t, err)
	require.Empty(t, invitations)
	require.Equal(t, http.StatusOK, c.get("/team").StatusCode, "still signed in")

	// The same post from the site itself works.
	res := c.post("/settings/keys", url.Values{"name": {"Mine"}})
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Equal(t, keys+1, h.keyCount())
}

func TestOverLongFieldsAreRefusedNextToTheField(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.client()
	c.signIn(h.env.OwnerEmail)
	keys := h.keyCount()

	res := c.post("/settings/keys", url.Values{"name": {strings.Repeat("k", identity.MaxKeyNameLength+1)}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, res.Body, `<p class="field-error" id="name-error"><span class="visually-hidden">Error:</span> Must be at most 100 characters.</p>`)
	require.Contains(t, res.Body, `aria-describedby="name-hint name-error" aria-invalid="true"`)
	require.Contains(t, res.Body, `<a href="#name">Must be at most 100 characters.</a>`, "the summary at the top links to the field")
	require.Contains(t, res.Body, `value="`+strings.Repeat("k", identity.MaxKeyNameLength+1)+`"`, "the value is kept to correct")
	require.Equal(t, keys, h.keyCount())

	before, err := h.env.App.Identity.WorkspaceSettings(context.Background(), c.principal())
	require.NoError(t, err)
	res = c.post("/settings", url.Values{
		"company": {strings.Repeat("c", identity.MaxSettingsNameLength+1)},
		"name":    {"Ada"},
	})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, res.Body, `id="company-error"`)
	require.Contains(t, res.Body, "Must be at most 200 characters (got 201).")
	after, err := h.env.App.Identity.WorkspaceSettings(context.Background(), c.principal())
	require.NoError(t, err)
	require.Equal(t, before, after, "nothing changed")

	res = c.post("/settings/keys", url.Values{"name": {strings.Repeat("k", 70_000)}})
	require.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode)
	require.Contains(t, res.Body, "The form sent more than 64 KB, so nothing was saved.")
	require.Equal(t, keys, h.keyCount())
}

func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	res := h.client().get("/login")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'")
	require.Equal(t, "same-origin", res.Header.Get("Referrer-Policy"))
	require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
	require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	require.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"))
}
