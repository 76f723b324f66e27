package web_test

import (
	"context"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/apptest"
)

// row is the table row of gift sendID in a page.
func row(t *testing.T, body, sendID string) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<tr data-send="` + sendID + `">.*?</tr>`).FindString(body)
	require.NotEmpty(t, m, "no row for %s", sendID)
	return html.UnescapeString(m)
}

func TestCampaignPageListsItsGifts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	w := h.giftWorld()
	member := h.env.AddPerson(t, core.RoleMember)
	for _, email := range []string{h.env.OwnerEmail, member.Email} {
		c := h.client()
		c.signIn(email)
		res := c.get("/campaigns/" + w.CampaignID)
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		requireNoTypedAddress(t, res.Body)
		require.Equal(t, 3, strings.Count(res.Body, `<tr data-send="`), "three gifts; Dee still waits")
		require.NotContains(t, res.Body, `id="more-gifts"`, "all of them are listed")

		ada := row(t, res.Body, w.Ada)
		require.Contains(t, ada, `<a href="/gifts/`+w.Ada+`">Ada Lovelace</a>`)
		require.Contains(t, ada, `data-status="ready">Ready</span>`)
		require.Contains(t, ada, "Not shipped")
		require.Contains(t, ada, `<td data-label="Gift link">Used</td>`)
		require.Contains(t, ada, `badge-test">Test</span>`)

		bea := row(t, res.Body, w.Bea)
		require.Contains(t, bea, `data-status="shipped">Shipped</span>`)
		require.Contains(t, bea, `<a href="https://ups.example/track/1Z999AA10123456784" rel="noopener noreferrer">UPS 1Z999AA10123456784</a>`)
		require.Contains(t, bea, "None: you supplied the address")

		cy := row(t, res.Body, w.Cy)
		require.Contains(t, cy, `data-status="awaiting_address">Awaiting address</span>`)
		require.Regexp(t, `<td data-label="Gift link">Active until \d{1,2} \w{3} \d{4}</td>`, cy)
		require.NotContains(t, res.Body, "/g/", "the list shows no link URL; the gift page does")
	}
}

func TestGiftPageShowsFactsAndTimeline(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	w := h.giftWorld()
	member := h.env.AddPerson(t, core.RoleMember)
	c := h.client()
	c.signIn(member.Email)

	res := c.get("/gifts/" + w.Ada)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	requireNoTypedAddress(t, res.Body)
	body := html.UnescapeString(res.Body)
	require.Contains(t, body, `<a href="/campaigns/`+w.CampaignID+`">Thank-you gifts</a>`)
	require.Contains(t, body, "Gift for Ada Lovelace")
	require.Contains(t, body, "A test gift: nothing will ship.")
	require.Contains(t, body, "Ada Lovelace, Engines Ltd")
	require.Contains(t, body, "Confirmed by the recipient")
	require.Contains(t, body, "It is kept for shipping and never shown.")
	require.Contains(t, body, "Gourmet")
	require.Contains(t, body, "$90.00")
	require.Contains(t, body, "The balance")
	require.Contains(t, body, "External ID: crm-ada")
	require.Contains(t, body, `<dd id="gift-link">Used</dd>`)
	require.NotContains(t, body, `id="gift-link-copy"`, "a used link is not offered")
	timeline := regexp.MustCompile(`(?s)<ol id="timeline".*?</ol>`).FindString(body)
	var lines []string
	for _, m := range regexp.MustCompile(`UTC</time>: ([^<]*)</li>`).FindAllStringSubmatch(timeline, -1) {
		lines = append(lines, m[1])
	}
	require.Equal(t, []string{
		"Gift created", "Recipient opened the link", "Address confirmed", "Status: Awaiting address → Ready (address confirmed by the recipient)",
	}, lines, "oldest first, in words")

	res = c.get("/gifts/" + w.Bea)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	body = html.UnescapeString(res.Body)
	require.Contains(t, body, w.BeaAddress+" (you supplied it)", "a sender-supplied address stays visible")
	require.Contains(t, body, `<a href="https://ups.example/track/1Z999AA10123456784" rel="noopener noreferrer">UPS 1Z999AA10123456784</a>`)
	require.Contains(t, body, "Status: In production → Shipped")
	require.Contains(t, body, "Order: Placed → Shipped")
	require.Contains(t, body, "Tracking: UPS 1Z999AA10123456784")
	require.Contains(t, body, "None: you supplied the address")

	// Cy's link is active: any member may copy it (read_gift_links).
	link, err := h.env.App.GiftLinks.SendLink(context.Background(), c.principal(), w.Cy)
	require.NoError(t, err)
	res = c.get("/gifts/" + w.Cy)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Contains(t, res.Body, `<code id="gift-link-url" class="secret-value">`+link.URL+`</code>`)
	require.Contains(t, res.Body, "do not send its link to a real prospect")
	require.Contains(t, res.Body, "Waiting for the recipient to confirm it through the gift link.")
}

func TestGiftPageIsNotFoundOutsideTheWorkspace(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	w := h.giftWorld()
	other := apptest.NewWorkspace(t, h.env.App, apptest.WorkspaceOptions{})
	c := h.client()
	c.signIn(other.OwnerEmail)
	for _, path := range []string{"/gifts/" + w.Ada, "/gifts/" + w.Bea, "/gifts/send_nope", "/campaigns/" + w.CampaignID} {
		res := c.get(path)
		require.Equal(t, http.StatusNotFound, res.StatusCode, path)
		require.NotContains(t, res.Body, "Ada Lovelace", path)
		require.NotContains(t, res.Body, "Sender Street", path)
	}
	res := c.get("/")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.NotContains(t, res.Body, "Ada Lovelace", "another workspace's events are not on this home page")
	require.Contains(t, res.Body, `id="nothing-waits"`)

	anonymous := h.client()
	res = anonymous.get("/gifts/" + w.Ada)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, "signed out: to the login page")
}

func TestHomeSaysWhatWaits(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	w := h.giftWorld()
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	res := owner.get("/")
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	requireNoTypedAddress(t, res.Body)
	body := html.UnescapeString(res.Body)
	require.Contains(t, body, "1 person waits for approval in 1 playbook")
	require.Contains(t, body, `<a href="/?queue=" id="home-queue">approve or skip them</a>`)
	require.Contains(t, body, "1 gift waits for the recipient to confirm their address")
	require.NotContains(t, body, "within 3 days", "Cy's link has 14 days")
	events := regexp.MustCompile(`(?s)<ul id="home-events">.*?</ul>`).FindString(body)
	require.Contains(t, events, `<a href="/gifts/`+w.Bea+`">Bea Brown</a>: Tracking: UPS 1Z999AA10123456784`)
	require.Less(t, indexOf(t, events, "Tracking: UPS"), indexOf(t, events, "Status: Ready → In production"), "newest first")

	h.env.Clock.Advance(12 * 24 * time.Hour) // Cy's link ends in under 2 days: Cy's link ends in under 2
	member := h.env.AddPerson(t, core.RoleMember)
	mc := h.client()
	mc.signIn(member.Email)
	res = mc.get("/")
	body = html.UnescapeString(res.Body)
	require.Contains(t, body, "1 link stops working within 3 days")
	require.Contains(t, body, "an owner or admin approves them")
	require.NotContains(t, body, "approve or skip them")
}
