package web_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/notify"
)

// Each person chooses on the settings page which emails they get: the
// defaults are checked, a save keeps what was checked, and a bad choice is
// answered with the summary, the marked group and the other form's values
// kept.
func TestSettingsChooseEmails(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	res := owner.get("/settings")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, `value="waiting" id="email-waiting" aria-describedby="email-waiting-hint" checked`)
	require.Contains(t, res.Body, `value="balance_stopped" id="email-balance_stopped" aria-describedby="email-balance_stopped-hint" checked`)
	require.NotContains(t, res.Body, `id="email-digest" aria-describedby="email-digest-hint" checked`)

	res = owner.post("/settings/emails", url.Values{"kinds": {"waiting", "digest"}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	require.Equal(t, "/settings?done=emails-saved#emails", res.Header.Get("Location"))
	res = owner.get("/settings?done=emails-saved")
	require.Contains(t, res.Body, "Your email choices were saved.")
	require.Contains(t, res.Body, `id="email-digest" aria-describedby="email-digest-hint" checked`)
	require.NotContains(t, res.Body, `id="email-balance_stopped" aria-describedby="email-balance_stopped-hint" checked`)

	res = owner.post("/settings/emails", url.Values{"kinds": {"waiting", "weekly"}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, res.Body, `<a href="#kinds">`)
	require.Contains(t, res.Body, `id="kinds-error"`)
	require.Contains(t, res.Body, `aria-invalid="true"`)
	require.Contains(t, res.Body, `id="email-waiting" aria-describedby="email-waiting-hint" checked`, "what was checked is kept")
	require.NotContains(t, res.Body, `id="email-digest" aria-describedby="email-digest-hint" checked`)
}

// The unsubscribe link shows a confirm page that changes nothing; its
// button, or a mail client's one-click POST (RFC 8058, sent from no
// browser), turns exactly that kind off; a forged link is refused.
func TestUnsubscribeLink(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	p := owner.principal()
	token := h.env.App.Notify.UnsubscribeToken(notify.Unsubscribe{WorkspaceID: p.WorkspaceID, UserID: p.UserID, Kind: notify.KindWaiting})
	on := func() map[notify.Kind]bool {
		cs, err := h.env.App.Notify.Choices(context.Background(), p)
		require.NoError(t, err)
		out := map[notify.Kind]bool{}
		for _, c := range cs {
			out[c.Kind] = c.On
		}
		return out
	}

	stranger := h.client()
	res := stranger.get("/unsubscribe/" + token)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, "Stop these emails?")
	require.Contains(t, res.Body, notify.KindWaiting.Label())
	require.True(t, on()[notify.KindWaiting], "opening the link changes nothing")

	res = stranger.post("/unsubscribe/"+token, url.Values{"List-Unsubscribe": {"One-Click"}}, "Sec-Fetch-Site", "", "Origin", "")
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Contains(t, res.Body, "Emails stopped")
	require.Equal(t, map[notify.Kind]bool{notify.KindWaiting: false, notify.KindBalanceStopped: true, notify.KindDeclinedExpired: false, notify.KindDigest: false}, on())

	res = stranger.post("/unsubscribe/"+token[:len(token)-2]+"xy", url.Values{})
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	require.Contains(t, res.Body, "This link cannot be used")
}
