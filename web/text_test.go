package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHostileTextNeverReachesTheDatabase sends NUL characters and bytes
// that are not UTF-8 in paths, query strings and form fields: a path is
// 404, a query or form value is a 400 page naming the field, never a 500,
// and nothing is written.
func TestHostileTextNeverReachesTheDatabase(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	ctx := context.Background()
	keysBefore, err := h.env.App.Identity.ListAPIKeys(ctx, owner.principal())
	require.NoError(t, err)

	for _, path := range []string{"/campaigns/%00", "/campaigns/%FF", "/campaigns/cmp_%00x", "/gifts/%00", "/gifts/%C3%28",
		"/settings/webhooks/%FF", "/sandbox/pay/%00", "/invite/%00", "/g/%FF", "/static/%00"} {
		res := owner.get(path)
		require.Equal(t, http.StatusNotFound, res.StatusCode, "GET %s: %s", path, res.Body)
	}
	for _, path := range []string{"/campaigns?status=%00", "/settings/webhooks/wh_x?status=%FF", "/login?next=%00", "/gifts/x?%FF=1"} {
		res := owner.get(path)
		require.Equal(t, http.StatusBadRequest, res.StatusCode, "GET %s: %s", path, res.Body)
		require.Contains(t, res.Body, "Address not understood", path)
	}
	res := owner.post("/campaigns/%00/status", url.Values{"status": {"paused"}})
	require.Equal(t, http.StatusNotFound, res.StatusCode, res.Body)

	forms := []struct {
		path, field string
		form        url.Values
	}{
		{"/settings/keys", "name", url.Values{"name": {"key\x00one"}}},
		{"/settings/keys", "name", url.Values{"name": {"key\xffone"}}},
		{"/team/invitations", "email", url.Values{"email": {"a\x00@example.com"}, "role": {"member"}}},
		{"/team/invitations", "role", url.Values{"email": {"a@example.com"}, "role": {"member\xff"}}},
		{"/settings", "senderName", url.Values{"senderName": {"Sam\x00"}}},
		{"/settings/webhooks", "url", url.Values{"url": {"https://example.com/\x00"}}},
		{"/balance/topup", "amount", url.Values{"amount": {"25\x00"}}},
		{"/queue/approve", "queueItemId", url.Values{"queueItemId": {"q\xff"}}},
		{"/workspace/switch", "workspaceId", url.Values{"workspaceId": {"ws_\x00"}}},
	}
	for _, f := range forms {
		res := owner.post(f.path, f.form)
		require.Equal(t, http.StatusBadRequest, res.StatusCode, "POST %s %q: %s", f.path, f.form, res.Body)
		require.Contains(t, res.Body, "Form not understood", f.path)
		require.Contains(t, res.Body, "field “"+f.field+"”", f.path)
	}
	res = owner.post("/settings/keys", url.Values{"name\x00": {"x"}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)

	// Signed out: the sign-in form and an invitation's acceptance.
	anon := h.client()
	res = anon.post("/login", url.Values{"email": {h.env.OwnerEmail + "\x00"}, "password": {"x"}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	require.Contains(t, res.Body, "field “email”")
	res = anon.post("/invite/inv_anything", url.Values{"email": {"a@example.com"}, "name": {"Ann\x00"}, "password": {"correct horse battery"}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	require.Contains(t, res.Body, "field “name”")
	res = anon.post("/g/"+strings.Repeat("a", 10)+"%00", url.Values{})
	require.Equal(t, http.StatusNotFound, res.StatusCode, res.Body)

	keysAfter, err := h.env.App.Identity.ListAPIKeys(ctx, owner.principal())
	require.NoError(t, err)
	require.Len(t, keysAfter, len(keysBefore), "no key was made")
	inv, err := h.env.App.Identity.ListTeamInvitations(ctx, owner.principal())
	require.NoError(t, err)
	require.Empty(t, inv, "no invitation was made")
	require.NotContains(t, h.logs.String(), "level=ERROR")
}
