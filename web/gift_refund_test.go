package web_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/giftlink"
)

// TestGiftPageRefundButton revokes Cy's unused link: an owner sees "Request
// a refund" on the gift page and asks with a reason, a member sees no
// button, and the page says the request waits for staff (never refunded)
// until staff approve it.
func TestGiftPageRefundButton(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	w := h.giftWorld()
	ctx := context.Background()
	_, err := h.env.App.GiftLinks.Revoke(ctx, h.ownerPrincipal(), w.Cy, 1)
	require.NoError(t, err)

	member := h.env.AddPerson(t, core.RoleMember)
	m := h.client()
	m.signIn(member.Email)
	res := m.get("/gifts/" + w.Cy)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.NotContains(t, res.Body, "Request a refund", "only an owner or admin asks")
	res = m.post("/gifts/"+w.Cy+"/refund", url.Values{"reason": {"wrong person"}})
	require.Equal(t, http.StatusForbidden, res.StatusCode)

	o := h.client()
	o.signIn(h.env.OwnerEmail)
	res = o.get("/gifts/" + w.Ada)
	require.NotContains(t, res.Body, "Request a refund", "a used link is not refunded")
	res = o.get("/gifts/" + w.Cy)
	require.Contains(t, res.Body, "Request a refund")
	res = o.post("/gifts/"+w.Cy+"/refund", url.Values{"reason": {""}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	require.Contains(t, res.Body, "reason")

	res = o.post("/gifts/"+w.Cy+"/refund", url.Values{"reason": {"sent to the wrong person"}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	require.Equal(t, "/gifts/"+w.Cy+"?done=refund-requested#gift-refund", res.Header.Get("Location"))
	res = o.get("/gifts/" + w.Cy + "?done=refund-requested")
	body := html.UnescapeString(res.Body)
	require.Contains(t, body, "Nothing is refunded until they approve it.")
	require.Contains(t, body, "Requested: Giftwell's staff are reviewing it. Nothing is refunded yet.")
	require.NotContains(t, body, "Request a refund")

	_, err = h.env.App.GiftLinks.DecideRefund(ctx, w.Cy, giftlink.RefundApprove)
	require.NoError(t, err)
	body = html.UnescapeString(o.get("/gifts/" + w.Cy).Body)
	require.Contains(t, body, `<p id="gift-refund-state">Refunded.</p>`)
}
