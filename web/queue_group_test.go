package web_test

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
)

// The queue groups people by playbook with a count, a total and why they
// wait, filters by why, and approves a whole group behind one confirmation
// that states the people, the total and the balance after; the request
// never spends more than was confirmed, and the result says who, whom and
// how much, and why the rest still wait.
func TestQueueGroupApproveAll(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c, ids := h.queuedPlaybook("Renewals thank-you", ada, bea, cy)
	other, more := h.queuedPlaybook("Webinar follow-up", campaign.RecipientInput{Name: "Di Dane", Email: "di@example.com"})
	h.topUp(2*giftCents + 500)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)

	page := owner.get("/?queue=")
	require.Equal(t, http.StatusOK, page.StatusCode, page.Body)
	body := html.UnescapeString(page.Body)
	group := html.UnescapeString(between(t, page.Body, `id="group-`+c.ID+`"`, `</tbody>`))
	require.Contains(t, group, "Renewals thank-you")
	require.Contains(t, group, `data-group-people="3">3 waiting`)
	require.Contains(t, group, "$270.00</strong> to approve them all")
	require.Contains(t, group, "Approve all 3")
	require.Contains(t, group, "Approve 3 gifts for $270.00, paid from the balance? The balance is $185.00, so only the gifts it covers are approved, in queue order; add $85.00 to approve them all.")
	require.Contains(t, body, `id="group-`+other.ID+`"`)
	require.Contains(t, body, "Add $175.00 to the balance to pay for the 2 gifts waiting for funds.", "the funds sentence, with the amount")
	require.Contains(t, body, `<option value="auto_approve_off">auto-approve is off (2)</option>`)

	// The filter narrows every group to the people who wait for one reason.
	page = owner.get("/?queue=&reason=low_balance")
	require.Contains(t, page.Body, `data-recipient="`+ids[2]+`"`)
	require.NotContains(t, page.Body, `data-recipient="`+ids[0]+`"`)
	require.Contains(t, page.Body, `<input type="hidden" name="reason" value="low_balance">`)

	// Approving the group, confirmed for 3 people and $270: two are paid,
	// the third still waits for funds.
	res := owner.post("/queue/approve-group", url.Values{"queue": {""}, "campaign_id": {c.ID}, "reason": {""}, "people": {"3"}, "cents": {"27000"}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	page = owner.get(res.Header.Get("Location"))
	require.Contains(t, html.UnescapeString(flash(page.Body)),
		"Approved 2 gifts for Renewals thank-you, $180.00 from the balance; 1 still waits: not enough funds.")
	require.Equal(t, ids[2:], h.waitingIDs(c.ID))
	require.Equal(t, more, h.waitingIDs(other.ID), "another playbook's people are not touched")
	require.Equal(t, int64(500), h.balanceCents())

	// The confirmed total is a ceiling: confirmed for $0, nobody is paid.
	h.topUp(giftCents)
	res = owner.post("/queue/approve-group", url.Values{"queue": {""}, "campaign_id": {c.ID}, "people": {"1"}, "cents": {"0"}})
	page = owner.get(res.Header.Get("Location"))
	require.Contains(t, html.UnescapeString(flash(page.Body)), "Approved 0 gifts for Renewals thank-you, $0.00 from the balance; 1 still waits: more than the total you confirmed.")

	// Skip all, with a reason; a form without the confirmed count changes nothing.
	res = owner.post("/queue/skip-group", url.Values{"queue": {""}, "campaign_id": {other.ID}, "people": {"1"}, "cents": {"9000"}, "reason_text": {"Not this quarter"}})
	page = owner.get(res.Header.Get("Location"))
	require.Contains(t, html.UnescapeString(flash(page.Body)), "Skipped 1 person on Webinar follow-up.")
	require.Empty(t, h.waitingIDs(other.ID))
	res = owner.post("/queue/approve-group", url.Values{"queue": {""}, "campaign_id": {c.ID}, "cents": {"9000"}})
	page = owner.get(res.Header.Get("Location"))
	require.Contains(t, flash(page.Body), "did not say how many people")
	require.Equal(t, ids[2:], h.waitingIDs(c.ID))

	// A member cannot decide a group.
	email, _ := h.addMember(core.RoleMember)
	member := h.client()
	member.signIn(email)
	res = member.post("/queue/approve-group", url.Values{"queue": {""}, "campaign_id": {c.ID}, "people": {"1"}, "cents": {"9000"}})
	page = member.get(res.Header.Get("Location"))
	require.True(t, strings.Contains(flash(page.Body), "owner or admin"), flash(page.Body))
	require.Equal(t, ids[2:], h.waitingIDs(c.ID))
}

// between is the part of s from the first from to the next to after it.
func between(t *testing.T, s, from, to string) string {
	t.Helper()
	i := strings.Index(s, from)
	require.GreaterOrEqual(t, i, 0, "%q not found", from)
	j := strings.Index(s[i:], to)
	require.GreaterOrEqual(t, j, 0, "%q not found after %q", to, from)
	return s[i : i+j]
}

// A playbook's page leads to its queue with the waiting count, the total
// and why they wait, and says each person's state in words.
func TestPlaybookPageLeadsToItsQueue(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c, ids := h.queuedPlaybook("Renewals thank-you", ada, bea)
	h.topUp(giftCents)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	res := owner.post("/queue/approve", url.Values{"queue": {c.ID}, "campaign_id": {c.ID}, "recipient_id": {ids[0]}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)

	page := owner.get("/campaigns/" + c.ID)
	require.Equal(t, http.StatusOK, page.StatusCode, page.Body)
	body := html.UnescapeString(page.Body)
	require.Contains(t, body, `<strong id="waiting-count">1 person waits</strong> for approval, $90.00 to approve them all.`)
	require.Contains(t, body, `href="/?queue=`+c.ID+`" id="open-queue"`)
	roster := between(t, body, `id="roster"`, `</table>`)
	require.Contains(t, between(t, roster, `data-recipient="`+ids[0]+`"`, `</tr>`), "Approved by a person")
	require.Contains(t, between(t, roster, `data-recipient="`+ids[0]+`"`, `</tr>`), "Open the gift")
	require.Contains(t, between(t, roster, `data-recipient="`+ids[1]+`"`, `</tr>`), "Waiting: Add $90.00 to the balance to pay for this gift.")
}
