package web_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/core/notify"
	"github.com/giftwell/giftwell/internal/apptest"
)

// Long words people really have: a name, a company and an email address
// that do not fit a phone's line, so that the pages must wrap them.
const (
	longName    = "Maximiliana Wolfeschlegelsteinhausen-Bergerdorff"
	longCompany = "Internationale Handelsgesellschaft für Geschenkartikel und Präsente mbH"
	longEmail   = "maximiliana.wolfeschlegelsteinhausen-bergerdorff@internationale-handelsgesellschaft.example"
)

// pagesWorld is a workspace with something on every page for people:
// several campaigns, people waiting in two playbooks, gifts in every
// state, a paid and an open checkout, members and an invitation, keys,
// webhook endpoints with deliveries, artwork and a list being imported;
// each field is the path of a page that needs one of them.
type pagesWorld struct {
	h *harness
	// Playbook is the gift world's playbook page; Gift its shipped gift's page.
	Playbook, Gift string
	// Review is a draft batch's review page; PlaybookQueue one playbook's queue.
	Review, PlaybookQueue string
	// TopUp is an open top-up's payment page; Invoice a paid checkout's invoice.
	TopUp, Invoice string
	// DeclinedGift is a card-paid gift its recipient declined.
	DeclinedGift string
	// Import is the column mapping of an uploaded list.
	Import string
	// Deliveries is a webhook endpoint's deliveries.
	Deliveries string
	// Invite is an invitation's page; GiftLink a recipient's page and
	// UsedLink the page of a link already used.
	Invite, GiftLink, UsedLink string
	// Unsubscribe is the owner's one-click unsubscribe link of the digest.
	Unsubscribe string
}

// pagesWorld builds the world through core and the pages' own forms, as an
// agent, the owner and recipients do.
func (h *hooks) pagesWorld() *pagesWorld {
	t := h.t
	t.Helper()
	ctx := context.Background()
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	w := &pagesWorld{h: h.harness}

	gw := h.giftWorld()
	w.Playbook, w.Gift = "/campaigns/"+gw.CampaignID, "/gifts/"+gw.Bea
	c, _ := h.queuedPlaybook("Renewals thank-you for the enterprise accounts of the northern region",
		campaign.RecipientInput{Name: longName, Title: "Vice President of Strategic Partnerships", Company: longCompany, Email: longEmail},
		campaign.RecipientInput{Name: "Bo Li", Company: "Acme", Email: "bo@example.com"},
		campaign.RecipientInput{Name: "Carla Mendes", Title: "Buyer", Company: "Mendes & Filhos", Email: "carla@example.com"},
	)
	w.PlaybookQueue = "/?queue=" + c.ID

	// A draft batch to review, one with an open checkout, one paid and launched.
	w.Review = "/campaigns/" + h.env.NewBatch(t, owner.principal(), 3).ID + "?review=1"
	h.openCheckout(owner, h.env.NewBatch(t, owner.principal(), 2))
	w.Invoice = h.payAndLaunch(owner, h.env.NewBatch(t, owner.principal(), 4))
	_, declined := h.declinedCardGift(owner)
	w.DeclinedGift = "/gifts/" + declined

	res := owner.post("/balance/topup", url.Values{"amount": {"250.00"}, "idempotencyKey": {"pages-" + core.RandomHex(4)}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	w.TopUp = strings.TrimPrefix(res.Header.Get("Location"), h.site)

	mapping := owner.postFile("/campaigns/"+gw.CampaignID+"/import", "csv", "list.csv", "",
		[]byte("Full Name,Work Email,Company,Account owner,Photo URL\n"+longName+","+longEmail+","+longCompany+",kim,\nAna Alvarez,ana@example.com,Acme,lee,\n"), nil)
	require.Equal(t, http.StatusSeeOther, mapping.StatusCode, mapping.Body)
	w.Import = mapping.Header.Get("Location")

	_, err := h.env.App.Identity.AddMember(ctx, identity.AddMemberParams{
		WorkspaceID: h.env.WorkspaceID, Email: longEmail, Password: apptest.Password, Role: core.RoleAdmin, Name: longName,
	})
	require.NoError(t, err)
	h.addMember(core.RoleMember)
	res = owner.post("/team/invitations", url.Values{"email": {"new." + longEmail}, "role": {"member"}})
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	invite := inviteURLPattern.FindStringSubmatch(res.Body)
	require.NotNil(t, invite, res.Body)
	w.Invite = strings.TrimPrefix(invite[1], h.site)

	res = owner.post("/settings/keys", url.Values{"name": {"Sales assistant for the enterprise accounts team"}})
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)

	id, _ := h.addEndpoint(owner, h.base+"/receiver/a-rather-long-path/for-the-gift-events-of-the-crm-integration", "all")
	h.addEndpoint(owner, h.base+"/second", string(core.EventSendCreated), string(core.EventSendStatusChanged))
	h.sender.Answer(http.StatusServiceUnavailable)
	h.record(core.EventSendCreated, 2)
	h.work()
	h.sender.Answer(http.StatusOK)
	h.record(core.EventSendStatusChanged, 1)
	h.work()
	w.Deliveries = "/settings/webhooks/" + id

	h.env.ReadyArtwork(t, "logo")
	h.env.ReadyArtwork(t, "portrait")

	_, w.GiftLink = h.linkGift("Ada Lovelace")
	w.UsedLink = h.usedLink()
	p := owner.principal()
	w.Unsubscribe = "/unsubscribe/" + h.env.App.Notify.UnsubscribeToken(notify.Unsubscribe{WorkspaceID: p.WorkspaceID, UserID: p.UserID, Kind: notify.KindDigest})
	return w
}

// openCheckout opens batch b's checkout through its review page's form and
// returns the payment page's path.
func (h *harness) openCheckout(owner *client, b campaign.Campaign) string {
	h.t.Helper()
	res := owner.get("/campaigns/" + b.ID + "?review=1")
	key := regexp.MustCompile(`name="idempotencyKey" value="(web-[0-9a-f]+)"`).FindStringSubmatch(res.Body)
	require.NotNil(h.t, key, res.Body)
	res = owner.post("/campaigns/"+b.ID+"/pay", url.Values{"policyVersion": {strconv.FormatInt(b.PolicyVersion, 10)}, "idempotencyKey": {key[1]}})
	require.Equal(h.t, http.StatusSeeOther, res.StatusCode, res.Body)
	return strings.TrimPrefix(res.Header.Get("Location"), h.site)
}

// payAndLaunch pays batch b's open checkout on the sandbox, launches it
// step by step as the launch page does, and returns its invoice's path.
func (h *harness) payAndLaunch(owner *client, b campaign.Campaign) string {
	h.t.Helper()
	res := owner.post(h.openCheckout(owner, b), url.Values{})
	require.Equal(h.t, http.StatusSeeOther, res.StatusCode, res.Body)
	deadline := time.Now().Add(30 * time.Second)
	for {
		res = owner.get("/campaigns/" + b.ID + "/launch")
		if strings.Contains(res.Body, `id="launch-done"`) {
			break
		}
		m := regexp.MustCompile(`name="cursor" value="(\d+)"`).FindStringSubmatch(res.Body)
		require.NotNil(h.t, m, res.Body)
		require.Equal(h.t, http.StatusSeeOther, owner.post("/campaigns/"+b.ID+"/launch", url.Values{"cursor": {m[1]}}).StatusCode)
		require.True(h.t, time.Now().Before(deadline), "launch did not finish")
	}
	res = owner.get("/billing")
	inv := regexp.MustCompile(`href="` + regexp.QuoteMeta(h.site) + `(/billing/invoices/chk_[0-9a-z]+)"`).FindStringSubmatch(res.Body)
	require.NotNil(h.t, inv, res.Body)
	return inv[1]
}

// usedLink is the path of a gift link its recipient has already used to
// confirm an address.
func (h *harness) usedLink() string {
	h.t.Helper()
	sendID, path := h.linkGift("Bea Brown")
	token := strings.TrimPrefix(path, "/g/")
	_, err := h.env.App.GiftLinks.Open(context.Background(), token, "203.0.113.9")
	require.NoError(h.t, err)
	_, err = h.env.App.GiftLinks.Confirm(context.Background(), token, "203.0.113.9", giftlink.Address{
		Name: "Bea Brown", Street: "12 Byron Way", City: "Springfield", State: "IL", Zip: "62701",
	})
	require.NoError(h.t, err, sendID)
	return path
}
