package web_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
)

// declinedCardGift pays and launches a batch of two by card on the sandbox
// (its first person confirms their own address, the second's is known) and
// declines the first gift as its recipient does; it returns the batch and
// the declined gift.
func (h *harness) declinedCardGift(owner *client) (campaignID, sendID string) {
	h.t.Helper()
	ctx := context.Background()
	b := h.env.NewBatch(h.t, owner.principal(), 2)
	h.payAndLaunch(owner, b)
	gifts, err := h.env.App.Gifts.List(ctx, h.ownerPrincipal(), gift.GiftFilter{CampaignID: b.ID, Limit: 10})
	require.NoError(h.t, err)
	for _, g := range gifts.Items {
		if g.GiftLinkGeneration == 0 {
			continue
		}
		l, err := h.env.App.GiftLinks.SendLink(ctx, h.ownerPrincipal(), g.ID)
		require.NoError(h.t, err)
		token := strings.TrimPrefix(l.URL, h.env.SiteURL+"/g/")
		_, err = h.env.App.GiftLinks.Open(ctx, token, "203.0.113.9")
		require.NoError(h.t, err)
		_, err = h.env.App.GiftLinks.Decline(ctx, token, "203.0.113.9")
		require.NoError(h.t, err)
		return b.ID, g.ID
	}
	h.t.Fatal("no gift with a link")
	return "", ""
}

// A card-paid gift its recipient declined says where its money is (held
// for it, paid by card, until someone chooses) and nothing of the address
// it no longer waits for; the owner is offered Regift and a refund to the
// card, a member neither; the owner's regift gives it a new link. The
// campaign page and the reports page count it as core's totals and
// campaign_results do.
func TestDeclinedCardPaidGiftPage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	campaignID, id := h.declinedCardGift(owner)
	g, err := h.env.App.Gifts.Get(context.Background(), h.ownerPrincipal(), id)
	require.NoError(t, err)
	price := core.Dollars(g.TotalCents)

	res := owner.get("/gifts/" + id)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	body := html.UnescapeString(res.Body)
	require.Contains(t, body, g.Recipient.Name+" declined this gift on ")
	require.Contains(t, body, "Its "+price+", paid by card at checkout, is held for it until you choose: nothing moves by itself. Regift it to someone else, or ask for a refund to the card.")
	require.Contains(t, body, "the card shows it within 5 to 10 business days")
	require.Contains(t, body, "Not needed: the recipient declined the gift.")
	require.NotContains(t, body, "Waiting for the recipient to confirm", "a declined gift waits for no address")
	require.Contains(t, body, `action="/gifts/`+id+`/regift"`)
	require.Contains(t, body, "Request a refund")

	member := h.env.AddPerson(t, core.RoleMember)
	m := h.client()
	m.signIn(member.Email)
	mb := m.get("/gifts/" + id).Body
	require.NotContains(t, mb, `action="/gifts/`+id+`/regift"`, "only an owner or admin decides where the money goes")
	require.NotContains(t, mb, "Request a refund")
	require.Contains(t, html.UnescapeString(mb), "is held for it until you choose")
	res = m.post("/gifts/"+id+"/regift", url.Values{"generation": {"1"}, "recipient.name": {"Mallory"}})
	require.Equal(t, http.StatusForbidden, res.StatusCode, res.Body)

	results, err := h.env.App.Tracking.CampaignResults(context.Background(), h.ownerPrincipal(), campaignID)
	require.NoError(t, err)
	require.Equal(t, 1, results.Declined)
	require.Equal(t, g.TotalCents, results.HeldCents)
	camp := html.UnescapeString(owner.get("/campaigns/" + campaignID).Body)
	require.Contains(t, camp, "2 gifts: 1 sent, 1 declined")
	require.Contains(t, camp, core.Dollars(results.CommittedCents)+" paid for them: "+
		core.Dollars(results.CommittedCents-results.HeldCents)+" for gifts sent; "+core.Dollars(results.HeldCents)+" held for declined or expired gifts")

	rep := html.UnescapeString(owner.get("/reports?campaignId=" + campaignID).Body)
	require.Contains(t, rep, `<dd id="total-declined">1</dd>`)
	require.Contains(t, rep, `<dd id="total-held">`+core.Dollars(results.HeldCents)+`</dd>`)
	require.Contains(t, rep, `<dd id="total-committed">`+core.Dollars(results.CommittedCents)+`</dd>`)

	res = owner.post("/gifts/"+id+"/regift", url.Values{"generation": {"1"}, "recipient.name": {""}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	require.Contains(t, res.Body, `aria-invalid="true"`)
	res = owner.post("/gifts/"+id+"/regift", url.Values{"generation": {"1"}, "recipient.name": {"Grace Hopper"}, "recipient.company": {"Navy"}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	body = html.UnescapeString(owner.get("/gifts/" + id + "?done=regifted").Body)
	require.Contains(t, body, "Gift for Grace Hopper")
	require.Contains(t, body, "pays for this gift.")
	require.Contains(t, body, `id="gift-link-url"`, "the new link is there to copy")
	require.Contains(t, body, "Waiting for the recipient to confirm it through the gift link.")
	require.NotContains(t, body, `action="/gifts/`+id+`/regift"`)
}
