package web_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/apptest"
)

// TestDatabaseOutageInTheWebApp: while the database is down, pages answer
// 503 "briefly unavailable; try again shortly" with Retry-After; a signed-in
// person is neither signed out nor sent to sign in (the session cookie
// stays); after a form is posted the page says to reload and check. When
// the database is back, the same session works again.
func TestDatabaseOutageInTheWebApp(t *testing.T) {
	t.Parallel()
	h := newHarness(t, apptest.WithFaults())
	c := h.client()
	c.signIn(h.env.OwnerEmail)
	token := c.sessionToken()
	unavailable := func(res response) {
		t.Helper()
		require.Equal(t, http.StatusServiceUnavailable, res.StatusCode, res.Body)
		require.Contains(t, res.Body, "Giftwell is briefly unavailable; try again shortly.")
		require.NotEmpty(t, res.Header.Get("Retry-After"))
		require.Empty(t, res.Header.Get("Location"), "no redirect to sign in")
		require.Nil(t, sessionCookie(res), "the session cookie is left alone")
		require.NotContains(t, res.Body, "Something went wrong")
	}

	h.env.Faults.Down()
	unavailable(c.get("/"))
	unavailable(c.get("/balance"))
	unavailable(c.get("/login?next=%2Fbalance")) // a live cookie: not the sign-in form
	res := c.post("/queue/approve", url.Values{"campaignId": {"cmp_x"}, "recipientId": {"recipient_x"}})
	unavailable(res)
	require.Contains(t, res.Body, "reload the page to see whether it was saved")
	unavailable(c.post("/logout", nil)) // the session could not be ended: it is not pretended to be
	anon := h.client()
	res = anon.post("/login", url.Values{"email": {h.env.OwnerEmail}, "password": {apptest.Password}})
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode, res.Body)
	require.Contains(t, res.Body, "briefly unavailable")
	require.Equal(t, token, c.sessionToken())

	require.NoError(t, h.env.Faults.Up())
	require.Eventually(t, func() bool { return c.get("/").StatusCode == http.StatusOK }, 5*time.Second, 50*time.Millisecond,
		"served again within 5 seconds of the database returning")
	res = c.get("/balance")
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Equal(t, token, c.sessionToken(), "still signed in with the same session")
}
