package web_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/internal/apptest"
)

// linkGift approves, in h's workspace, a playbook gift for a person who
// confirms their own address, and returns the gift's ID and its link's
// path (/g/<token>), read as an agent reads the link.
func (h *harness) linkGift(name string) (sendID, path string) {
	h.t.Helper()
	ctx := context.Background()
	owner := h.ownerPrincipal()
	h.env.TopUp(h.t, owner, 1_000_000)
	c, err := h.env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{
		Name: "Thanks " + name, Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam Seller", SenderCompany: "Acme & Co", Message: "Thanks for the chat, {{firstName}}!", MonthlyBudgetCents: 10_000_000,
		Customization: map[string]string{
			campaign.CustomizationWelcome:      "Hello {{firstName}}: <b>a gift</b> for you.",
			campaign.CustomizationContactEmail: "gifts@acme.example",
		},
	})
	require.NoError(h.t, err)
	res, err := h.env.App.Approvals.AddToPlaybook(ctx, owner, c.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{
		Name: name, Company: "Analytical", Email: apptest.UniqueEmail("recipient"), AddressMode: gift.AddressConfirm,
	}})
	require.NoError(h.t, err)
	sent, err := h.env.App.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: res.RecipientID})
	require.NoError(h.t, err)
	l, err := h.env.App.GiftLinks.SendLink(ctx, owner, sent.ID)
	require.NoError(h.t, err)
	p, ok := strings.CutPrefix(l.URL, h.site)
	require.True(h.t, ok, l.URL)
	return sent.ID, p
}

// giftStatus is gift sendID's status.
func (h *harness) giftStatus(sendID string) gift.SendStatus {
	h.t.Helper()
	g, err := h.env.App.Gifts.Get(context.Background(), h.ownerPrincipal(), sendID)
	require.NoError(h.t, err)
	return g.Status
}

// address is a form with a good address.
func address() url.Values {
	return url.Values{"name": {"Ada Lovelace"}, "street": {"12 Byron Way"}, "street2": {"Apt 3"}, "city": {"Springfield"},
		"state": {"Illinois"}, "zip": {"62701"}}
}

// requireGiftLinkHeaders checks what every /g/ answer carries.
func requireGiftLinkHeaders(t *testing.T, res response) {
	t.Helper()
	require.Equal(t, "no-referrer", res.Header.Get("Referrer-Policy"))
	require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	require.Contains(t, res.Header.Get("X-Robots-Tag"), "noindex")
}

func TestGiftLinkPageConfirmsAnAddress(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	sendID, path := h.linkGift("Ada Lovelace")
	c := h.client()
	prod, err := h.env.App.Catalog.Get(context.Background(), "gourmet-snack-crate")
	require.NoError(t, err)

	res := c.get(path)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	requireGiftLinkHeaders(t, res)
	require.Contains(t, res.Body, "This is a test gift: nothing will ship.")
	require.Contains(t, res.Body, "A gift from Sam Seller, Acme &amp; Co")
	require.Contains(t, res.Body, "Hello Ada: &lt;b&gt;a gift&lt;/b&gt; for you.", "the welcome is text, never markup")
	require.Contains(t, res.Body, "Thanks for the chat, Ada!")
	require.Contains(t, res.Body, html.EscapeString(prod.Name))
	require.Contains(t, res.Body, `href="mailto:gifts@acme.example"`)
	require.Contains(t, res.Body, `<form method="post" action="`+path+`"`)
	require.Contains(t, res.Body, `<form method="post" action="`+path+`/decline"`)
	require.Contains(t, res.Body, `name="name" type="text" value="Ada Lovelace"`, "the form starts with the recipient's name")

	// A bad zip: the message next to the field, the typed values kept.
	bad := address()
	bad.Set("zip", "6270")
	bad.Set("street", `12 "Byron" Way`)
	res = c.post(path, bad)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	requireGiftLinkHeaders(t, res)
	require.Contains(t, res.Body, `<p class="field-error" id="zip-error"><span class="visually-hidden">Error:</span> A ZIP code is 5 digits (12345) or 9 digits (12345-6789).</p>`)
	require.Contains(t, res.Body, `id="zip" name="zip" type="text" value="6270" aria-describedby="zip-hint zip-error" aria-invalid="true"`)
	require.Contains(t, res.Body, `value="12 &#34;Byron&#34; Way"`)
	require.Contains(t, res.Body, `<a href="#zip">`)
	require.Equal(t, gift.SendAwaitingAddress, h.giftStatus(sendID))

	res = c.post(path, address())
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	requireGiftLinkHeaders(t, res)
	require.Contains(t, res.Body, "<h1>Thank you</h1>")
	require.Contains(t, res.Body, "Springfield, IL 62701", "the answer echoes the address once")
	require.Contains(t, res.Body, "This is a test gift: nothing will ship.")
	require.Equal(t, gift.SendReady, h.giftStatus(sendID))

	// The used link says calmly where the gift is, and shows neither the
	// gift nor the address; answering it again says it was already used.
	opened := c.get(path)
	require.Contains(t, opened.Body, "<h1>Your address is confirmed</h1>")
	require.Contains(t, opened.Body, "the gift is being prepared")
	for _, res := range []response{opened, c.post(path, address()), c.post(path+"/decline", nil)} {
		requireGiftLinkHeaders(t, res)
		if res.Body != opened.Body {
			require.Contains(t, res.Body, "This gift link was already used")
		}
		for _, secret := range []string{html.EscapeString(prod.Name), "Springfield", "Byron", "Acme", "Ada"} {
			require.NotContains(t, res.Body, secret)
		}
	}
	require.Equal(t, gift.SendReady, h.giftStatus(sendID))
	require.NotContains(t, h.logs.String(), strings.TrimPrefix(path, "/g/"))
}

func TestGiftLinkPageDeclines(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	sendID, path := h.linkGift("Grace Hopper")
	c := h.client()

	// Another site's form changes nothing.
	res := c.post(path+"/decline", nil, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	res = c.post(path, address(), "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	require.Equal(t, gift.SendAwaitingAddress, h.giftStatus(sendID))

	res = c.post(path+"/decline", nil)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	requireGiftLinkHeaders(t, res)
	require.Contains(t, res.Body, "<h1>Gift declined</h1>")
	require.Equal(t, gift.SendDeclined, h.giftStatus(sendID))

	res = c.post(path+"/decline", nil)
	require.Equal(t, http.StatusConflict, res.StatusCode)
	require.Contains(t, res.Body, "This gift link was already used")
	require.Contains(t, c.get(path).Body, "<h1>This gift was declined</h1>", "opened again, the link says so calmly")
}

func TestGiftLinkEndStatesAndGuesses(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, path := h.linkGift("Alan Turing")
	c := h.client()

	res := c.get("/g/" + strings.Repeat("A", 43))
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	requireGiftLinkHeaders(t, res)
	require.Contains(t, res.Body, "Gift link not found")
	res = c.post("/g/nope", address())
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	require.Contains(t, res.Body, "Gift link not found")

	h.env.Clock.Advance(gift.GiftLinkLifetime)
	res = c.get(path)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, "This gift link expired")
	require.NotContains(t, res.Body, "Acme")

	// The clock moved to a new window: the address has every guess again.
	for range giftlink.GuessesPerWindow {
		res = c.get("/g/guess")
		require.Equal(t, http.StatusNotFound, res.StatusCode)
	}
	res = c.get("/g/guess")
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode)
	requireGiftLinkHeaders(t, res)
	require.NotEmpty(t, res.Header.Get("Retry-After"))
	require.Contains(t, res.Body, "Too many tries")
	res = c.get(path)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, "over the limit, real links wait too")
}

// The address form answers every problem at once: a summary linking each
// field, each field marked invalid with its message, and what was typed kept.
func TestGiftLinkAddressFormReportsEveryProblemAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	sendID, path := h.linkGift("Grace Hopper")
	c := h.client()
	c.get(path)

	bad := address()
	bad.Set("street", "")
	bad.Set("state", "Atlantis")
	bad.Set("zip", "6270")
	res := c.post(path, bad)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	body := html.UnescapeString(res.Body)
	require.Equal(t, 3, strings.Count(res.Body, `aria-invalid="true"`), "street, state and zip")
	summary := body[strings.Index(body, `id="problem"`):]
	summary = summary[:strings.Index(summary, "</div>")]
	for _, f := range []string{"street", "state", "zip"} {
		require.Contains(t, summary, `<a href="#`+f+`">`, "the summary links %s", f)
		require.Contains(t, res.Body, `id="`+f+`-error"`, "%s has its message", f)
	}
	require.Contains(t, summary, "Enter the street address.")
	require.Contains(t, summary, "is not a US state")
	require.Contains(t, summary, "A ZIP code is 5 digits")
	require.Contains(t, body, `value="Atlantis"`, "what was typed is kept")
	require.Contains(t, body, `value="Springfield"`)
	require.Equal(t, gift.SendAwaitingAddress, h.giftStatus(sendID))
}
