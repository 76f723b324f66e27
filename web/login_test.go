package web_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestSignInSetsTheSessionAndGoesToNext(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.client()

	res := c.get("/team")
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	require.Equal(t, "/login?next=%2Fteam", res.Header.Get("Location"))

	res = c.get("/login?next=%2Fteam")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, `<input type="hidden" name="next" value="/team">`)
	require.Contains(t, res.Body, `<label for="email">Email</label>`)
	require.Contains(t, res.Body, `<label for="password">Password</label>`)

	res = c.post("/login", url.Values{"email": {strings.ToUpper(h.env.OwnerEmail)}, "password": {apptest.Password}, "next": {"/team"}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	require.Equal(t, "/team", res.Header.Get("Location"))
	ck := sessionCookie(res)
	require.NotNil(t, ck)
	require.True(t, ck.HttpOnly)
	require.False(t, ck.Secure, "the site is http")
	require.Equal(t, http.SameSiteLaxMode, ck.SameSite)
	require.Equal(t, "/", ck.Path)
	require.WithinDuration(t, time.Now().Add(identity.SessionLifetime), ck.Expires, time.Minute)

	res = c.get("/team")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, h.env.OwnerEmail)
	require.Contains(t, res.Body, `<a href="/team" aria-current="page">Team</a>`)

	// Signed in, the sign-in page goes straight on.
	res = c.get("/login?next=%2Fsettings")
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	require.Equal(t, "/settings", res.Header.Get("Location"))
}

func TestSessionCookieIsSecureOnHTTPS(t *testing.T) {
	t.Parallel()
	h := newHarness(t, apptest.WithSiteURL("https://giftwell.example"))
	res := h.client().post("/login", url.Values{"email": {h.env.OwnerEmail}, "password": {apptest.Password}}, "Origin", "")
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	ck := sessionCookie(res)
	require.NotNil(t, ck)
	require.True(t, ck.Secure)
}

func TestWrongCredentialsAreRefusedWithOneMessage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.client()
	for _, email := range []string{h.env.OwnerEmail, "nobody@example.com"} {
		res := c.post("/login", url.Values{"email": {email}, "password": {"not the password"}})
		require.Equal(t, http.StatusUnauthorized, res.StatusCode)
		require.Contains(t, res.Body, "The email or password is wrong.")
		require.Contains(t, res.Body, `value="`+email+`"`, "the email is kept")
		require.NotContains(t, res.Body, "not the password")
		require.Nil(t, sessionCookie(res))
	}
	res := c.post("/login", url.Values{"email": {""}, "password": {"x"}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, res.Body, `<p class="field-error" id="email-error"><span class="visually-hidden">Error:</span> Is required.</p>`)
	require.Contains(t, res.Body, `aria-describedby="email-error" aria-invalid="true"`)
}

func TestSignInIsThrottled(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.client()
	wrong := url.Values{"email": {h.env.OwnerEmail}, "password": {"not the password"}}
	var res response
	for range 50 {
		if res = c.post("/login", wrong); res.StatusCode != http.StatusUnauthorized {
			break
		}
	}
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, res.Body)
	require.Regexp(t, `Too many failed sign-in attempts; wait (a second|\d+ seconds|a minute|\d+ minutes) and try again\.`, res.Body)
	wait, err := strconv.Atoi(res.Header.Get("Retry-After"))
	require.NoError(t, err)
	require.Positive(t, wait)

	// Even the right password waits now, from this address.
	res = c.post("/login", url.Values{"email": {h.env.OwnerEmail}, "password": {apptest.Password}})
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode)
	require.Nil(t, sessionCookie(res))
}

func TestNextMustBeALocalPath(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for next, want := range map[string]string{
		"https://evil.example/":       "/",
		"//evil.example/x":            "/",
		"/\\evil.example":             "/",
		"\\\\evil.example":            "/",
		"javascript:alert(1)":         "/",
		"/%2F%2Fevil.example":         "/",
		"/\t/evil.example":            "/",
		"evil.example":                "/",
		"/settings/keys?from=sign-in": "/settings/keys?from=sign-in",
	} {
		c := h.client()
		res := c.get("/login?next=" + url.QueryEscape(next))
		require.Equal(t, http.StatusOK, res.StatusCode)
		require.NotContains(t, res.Body, "evil.example", next)

		res = c.post("/login", url.Values{"email": {h.env.OwnerEmail}, "password": {apptest.Password}, "next": {next}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, next)
		require.Equal(t, want, res.Header.Get("Location"), next)
	}
}

func TestLogoutEndsTheSession(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.client()
	c.signIn(h.env.OwnerEmail)
	token := c.sessionToken()

	res := c.post("/logout", nil)
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	require.Equal(t, "/login", res.Header.Get("Location"))
	ck := sessionCookie(res)
	require.NotNil(t, ck)
	require.Empty(t, ck.Value)
	require.Negative(t, ck.MaxAge)
	require.Empty(t, c.sessionToken())

	// The old cookie, kept by someone, no longer works.
	stale := h.client()
	u, _ := url.Parse(h.site)
	stale.http.Jar.SetCookies(u, []*http.Cookie{{Name: identity.SessionCookieName, Value: token, Path: "/"}})
	res = stale.get("/settings/keys")
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	require.Equal(t, "/login?next=%2Fsettings%2Fkeys", res.Header.Get("Location"))
	require.Empty(t, stale.sessionToken(), "the stale cookie is cleared")
}
