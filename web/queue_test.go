package web_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/internal/apptest"
)

// giftCents is what one gourmet snack crate costs: 7500 + 1500 shipping.
const giftCents = 9000

// queuedPlaybook turns on a playbook of the gourmet snack crate as the
// signed-in owner and adds people to it with the owner's key, as an agent
// does; with auto-approve off, each of them waits. It returns the playbook
// and the people's roster IDs in the order given.
func (h *harness) queuedPlaybook(name string, people ...campaign.RecipientInput) (campaign.Campaign, []string) {
	h.t.Helper()
	ctx := context.Background()
	c := h.createCampaign(campaign.CampaignInput{
		Name: name, Mode: campaign.ModeAlwaysOn, ProductID: "gourmet-snack-crate",
		SenderName: "Sam Sender", SenderCompany: "Acme", Message: "Thanks {{firstName}}!",
	})
	on := campaign.StatusActive
	c, err := h.env.App.Campaigns.UpdateCampaign(ctx, h.ownerPrincipal(), c.ID, campaign.CampaignPatch{Status: &on, ExpectedPolicyVersion: c.PolicyVersion})
	require.NoError(h.t, err)
	key, err := h.env.App.Connect.Authenticate(ctx, h.env.OwnerKey)
	require.NoError(h.t, err)
	var ids []string
	for _, p := range people {
		res, err := h.env.App.Approvals.AddToPlaybook(ctx, key, c.ID, approval.PlaybookPersonAdd{Recipient: p})
		require.NoError(h.t, err)
		require.Equal(h.t, campaign.ApprovalWaiting, res.Approval.State, p.Name)
		require.Equal(h.t, h.site+"/?queue="+c.ID, res.ApprovalURL)
		ids = append(ids, res.RecipientID)
	}
	return c, ids
}

// topUp adds cents to the workspace's test balance through the sandbox.
func (h *harness) topUp(cents int64) {
	h.t.Helper()
	ctx := context.Background()
	s, err := h.env.App.Ledger.CreateBalanceTopup(ctx, h.ownerPrincipal(), ledger.TopupParams{Cents: cents, IdempotencyKey: "topup-" + core.RandomHex(6)})
	require.NoError(h.t, err)
	require.NoError(h.t, h.env.App.Ledger.CompleteTopup(ctx, s.SessionID))
}

// balanceCents is the workspace's test balance now.
func (h *harness) balanceCents() int64 {
	h.t.Helper()
	b, err := h.env.App.Approvals.Balance(context.Background(), h.ownerPrincipal())
	require.NoError(h.t, err)
	return b.Cents
}

// waitingIDs are the roster IDs in the queue of playbook id, in queue order.
func (h *harness) waitingIDs(id string) []string {
	h.t.Helper()
	items, err := h.env.App.Approvals.Queue(context.Background(), h.ownerPrincipal(), id)
	require.NoError(h.t, err)
	ids := []string{}
	for _, it := range items {
		ids = append(ids, it.RecipientID)
	}
	return ids
}

// table is the HTML of the table with id in body, or "" without one.
func table(body, id string) string {
	start := strings.Index(body, `<table id="`+id+`"`)
	if start < 0 {
		return ""
	}
	end := strings.Index(body[start:], "</table>")
	if end < 0 {
		return body[start:]
	}
	return body[start : start+end]
}

// flash is the text of the queue page's flash, or "" without one.
func flash(body string) string {
	start := strings.Index(body, `id="queue-flash"`)
	if start < 0 {
		return ""
	}
	end := strings.Index(body[start:], "</div>")
	return html.UnescapeString(body[start : start+end])
}

// person is a queue form's value naming one person: campaign/recipient.
func person(campaignID, recipientID string) string { return campaignID + "/" + recipientID }

var (
	ada = campaign.RecipientInput{Name: "Ada Lovelace", Company: "Engines Ltd", Title: "Head of Analysis", Email: "ada@example.com"}
	bea = campaign.RecipientInput{Name: "Bea Brown", SourceSystem: "hubspot", ExternalID: "42"}
	cy  = campaign.RecipientInput{Name: "Cy Clark", Company: "Clark & Co", Email: "cy@example.com"}
)

func TestQueuePageListsWaitingPeopleWithBlockers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c, ids := h.queuedPlaybook("Renewals thank-you", ada, bea)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)

	res := owner.get("/?queue=" + c.ID)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	body := html.UnescapeString(res.Body)
	require.Contains(t, body, `<a href="/campaigns/`+c.ID+`" id="queue-playbook">Renewals thank-you</a>`)
	require.Contains(t, body, "TEST MODE")
	require.Contains(t, body, `data-cents="0"`)
	require.Contains(t, body, `<a href="/balance" id="queue-add-funds">Add funds</a>`, "an empty balance: everyone shows Add funds")
	waiting := html.UnescapeString(table(res.Body, "queue"))
	require.Less(t, indexOf(t, waiting, ids[0]), indexOf(t, waiting, ids[1]), "queue order")
	require.Contains(t, waiting, "Ada Lovelace")
	require.Contains(t, waiting, "Head of Analysis, Engines Ltd")
	require.Contains(t, waiting, "Bea Brown")
	require.Contains(t, waiting, "$90.00")
	require.Contains(t, waiting, "Thanks Ada!")
	require.Contains(t, waiting, ">Waiting</span>")
	require.Equal(t, 2, strings.Count(waiting, `<span class="badge badge-paused">Add funds</span>`))
	require.Contains(t, waiting, `name="person" value="`+person(c.ID, ids[0])+`"`)
	require.Contains(t, res.Body, `id="approve-selected"`)
	require.Contains(t, res.Body, `id="skip-selected"`)
	require.Contains(t, res.Body, `maxlength="200"`)
	require.Contains(t, res.Body, "Nobody has been skipped on this playbook.")

	// The whole workspace's queue, with each person's playbook.
	other, more := h.queuedPlaybook("Webinar follow-up", cy)
	res = owner.get("/?queue=")
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	waiting = html.UnescapeString(table(res.Body, "queue"))
	for _, id := range append(ids, more...) {
		require.Contains(t, waiting, `data-recipient="`+id+`"`)
	}
	require.Contains(t, waiting, `<a href="/campaigns/`+other.ID+`">Webinar follow-up</a>`)
	require.Contains(t, waiting, `<a href="/campaigns/`+c.ID+`">Renewals thank-you</a>`)

	// The home page leads to it; signed out, the queue link asks to sign in first.
	require.Contains(t, owner.get("/").Body, `href="/?queue="`)
	res = h.client().get("/?queue=" + c.ID)
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	require.Equal(t, "/login?next="+url.QueryEscape("/?queue="+c.ID), res.Header.Get("Location"))
}

func TestQueueMemberSeesTheQueueReadOnly(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c, ids := h.queuedPlaybook("Renewals thank-you", ada)
	email, _ := h.addMember(core.RoleMember)
	member := h.client()
	member.signIn(email)

	res := member.get("/?queue=" + c.ID)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Contains(t, res.Body, "Ada Lovelace")
	require.Contains(t, res.Body, `id="queue-read-only"`)
	require.Contains(t, res.Body, "An owner or admin approves or skips the people waiting here.")
	require.NotContains(t, res.Body, `type="checkbox"`)
	require.NotContains(t, res.Body, `action="/queue/`)

	// A member's post is refused by core, and the page says so.
	h.topUp(10_000)
	res = member.post("/queue/approve", url.Values{"queue": {c.ID}, "campaign_id": {c.ID}, "recipient_id": {ids[0]}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	page := member.get(res.Header.Get("Location"))
	require.Contains(t, flash(page.Body), "1 could not be approved:")
	require.Contains(t, flash(page.Body), "Ada Lovelace:</strong> Only an owner or admin can do this.")
	require.Equal(t, ids, h.waitingIDs(c.ID))
	require.Equal(t, int64(10_000), h.balanceCents())
}

func TestQueueApproveCreatesTheGiftAndChargesTheBalance(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c, ids := h.queuedPlaybook("Renewals thank-you", ada, bea, cy)
	h.topUp(2*giftCents + 500)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)

	// Ada alone, by her row's button.
	res := owner.post("/queue/approve", url.Values{"queue": {c.ID}, "campaign_id": {c.ID}, "recipient_id": {ids[0]}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	require.Equal(t, "/?queue="+c.ID, res.Header.Get("Location"))
	page := owner.get(res.Header.Get("Location"))
	require.Equal(t, http.StatusOK, page.StatusCode, page.Body)
	require.Contains(t, flash(page.Body), "Approved 1 gift for Ada Lovelace, $90.00 from the balance.")
	require.Contains(t, page.Body, `role="status"`)
	require.NotContains(t, table(page.Body, "queue"), ids[0], "Ada left the queue")
	require.Equal(t, ids[1:], h.waitingIDs(c.ID))
	require.Equal(t, int64(giftCents+500), h.balanceCents())
	require.Contains(t, page.Body, `data-cents="9500"`)
	require.Empty(t, flash(owner.get("/?queue="+c.ID).Body), "the flash shows once")

	// Bea and Cy together: the balance pays for Bea, not for Cy.
	res = owner.post("/queue/approve", url.Values{"queue": {c.ID}, "person": {person(c.ID, ids[1]), person(c.ID, ids[2])}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	page = owner.get(res.Header.Get("Location"))
	f := flash(page.Body)
	require.Contains(t, f, "Approved 1 gift for Bea Brown, $90.00 from the balance; 1 could not be approved:")
	require.Contains(t, f, "Cy Clark:</strong> The test balance is $5.00; the gift costs $90.00.")
	require.Contains(t, f, `<a href="/balance" class="queue-topup">`)
	require.Contains(t, page.Body, `role="alert"`)
	require.Equal(t, ids[2:], h.waitingIDs(c.ID))
	require.Equal(t, int64(500), h.balanceCents())

	entries, err := h.env.App.Ledger.Ledger(context.Background(), h.ownerPrincipal(), ledger.MaxLedgerLimit)
	require.NoError(t, err)
	var debits int
	for _, e := range entries {
		if e.Kind == ledger.LedgerDebit {
			debits++
			require.Equal(t, int64(-giftCents), e.Cents)
			require.NotNil(t, e.SendID, "each debit pays for a gift")
		}
	}
	require.Equal(t, 2, debits)
}

func TestQueueApproveWithAnEmptyBalanceLinksToTheBalance(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c, ids := h.queuedPlaybook("Renewals thank-you", ada, bea)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)

	res := owner.post("/queue/approve", url.Values{"queue": {c.ID}, "person": {person(c.ID, ids[0]), person(c.ID, ids[1])}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	page := owner.get(res.Header.Get("Location"))
	f := flash(page.Body)
	require.Contains(t, f, "2 could not be approved:")
	require.Contains(t, f, "Ada Lovelace, Bea Brown:</strong> The test balance is $0.00; the gift costs $90.00. An owner or admin can add funds.",
		"the same message once, with both names")
	require.Contains(t, f, `<a href="/balance" class="queue-topup">Add funds on the balance page</a>`)
	require.Equal(t, ids, h.waitingIDs(c.ID), "nobody was approved")
	require.Zero(t, h.balanceCents())
}

func TestQueueSkipAndUnskip(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c, ids := h.queuedPlaybook("Renewals thank-you", ada, bea, cy)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)

	res := owner.post("/queue/skip", url.Values{"queue": {c.ID}, "campaign_id": {c.ID}, "recipient_id": {ids[0]}, "reason": {"Not a fit this quarter"}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	page := owner.get(res.Header.Get("Location"))
	require.Contains(t, flash(page.Body), "Skipped Ada Lovelace.")
	require.NotContains(t, table(page.Body, "queue"), ids[0])
	skipped := table(page.Body, "skipped")
	require.Contains(t, skipped, "Ada Lovelace")
	require.Contains(t, skipped, "Not a fit this quarter")
	require.Contains(t, skipped, `data-unskip="`+ids[0]+`"`)
	require.Equal(t, ids[1:], h.waitingIDs(c.ID))

	// Two more at once, newest skip listed first.
	h.env.Clock.Advance(time.Second)
	res = owner.post("/queue/skip", url.Values{"queue": {c.ID}, "person": {person(c.ID, ids[1]), person(c.ID, ids[2])}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	page = owner.get(res.Header.Get("Location"))
	require.Contains(t, flash(page.Body), "Skipped Bea Brown and Cy Clark.")
	require.Contains(t, page.Body, `id="queue-empty"`)
	skipped = table(page.Body, "skipped")
	require.Less(t, indexOf(t, skipped, ids[1]), indexOf(t, skipped, ids[0]), "newest first")

	// Unskip brings Ada back.
	res = owner.post("/queue/unskip", url.Values{"queue": {c.ID}, "campaign_id": {c.ID}, "recipient_id": {ids[0]}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	page = owner.get(res.Header.Get("Location"))
	require.Contains(t, flash(page.Body), "Unskipped Ada Lovelace.")
	require.Contains(t, table(page.Body, "queue"), `data-recipient="`+ids[0]+`"`, "Ada waits again")
	require.NotContains(t, table(page.Body, "skipped"), ids[0])
	require.Equal(t, ids[:1], h.waitingIDs(c.ID))

	// A reason over 200 characters skips nobody.
	res = owner.post("/queue/skip", url.Values{"queue": {c.ID}, "campaign_id": {c.ID}, "recipient_id": {ids[0]}, "reason": {strings.Repeat("x", 201)}})
	page = owner.get(res.Header.Get("Location"))
	require.Contains(t, flash(page.Body), "1 could not be skipped:")
	require.Contains(t, flash(page.Body), "Reason: must be at most 200 characters.")
	require.Equal(t, ids[:1], h.waitingIDs(c.ID))

	// A form that names nobody changes nothing and says so.
	res = owner.post("/queue/skip", url.Values{"queue": {c.ID}})
	page = owner.get(res.Header.Get("Location"))
	require.Contains(t, flash(page.Body), "Tick at least one person first; nothing was changed.")
}

func TestQueueCrossSitePostsAreRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c, ids := h.queuedPlaybook("Renewals thank-you", ada)
	h.topUp(10_000)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	form := url.Values{"queue": {c.ID}, "campaign_id": {c.ID}, "recipient_id": {ids[0]}}
	for _, path := range []string{"/queue/approve", "/queue/skip", "/queue/unskip"} {
		res := owner.post(path, form, "Sec-Fetch-Site", "cross-site", "Origin", "http://evil.example")
		require.Equal(t, http.StatusForbidden, res.StatusCode, path)
		require.Contains(t, res.Body, "This form was sent from another site, so nothing was changed.")
	}
	require.Equal(t, ids, h.waitingIDs(c.ID))
	require.Equal(t, int64(10_000), h.balanceCents())
}

func TestQueueOfAnotherWorkspaceIsNotFound(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	theirs := apptest.NewWorkspace(t, h.env.App, apptest.WorkspaceOptions{})
	_, theirOwner := h.env.SignIn(t, theirs.OwnerEmail)
	theirKey, err := h.env.App.Connect.Authenticate(ctx, theirs.OwnerKey)
	require.NoError(t, err)
	c, err := h.env.App.Campaigns.CreateCampaign(ctx, theirKey, campaign.CampaignInput{
		Name: "Their playbook", Mode: campaign.ModeAlwaysOn, ProductID: "gourmet-snack-crate", SenderName: "S", SenderCompany: "T", Message: "Hi {{firstName}}",
	})
	require.NoError(t, err)
	on := campaign.StatusActive
	_, err = h.env.App.Campaigns.UpdateCampaign(ctx, theirOwner, c.ID, campaign.CampaignPatch{Status: &on, ExpectedPolicyVersion: c.PolicyVersion})
	require.NoError(t, err)
	added, err := h.env.App.Approvals.AddToPlaybook(ctx, theirKey, c.ID, approval.PlaybookPersonAdd{Recipient: ada})
	require.NoError(t, err)

	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	res := owner.get("/?queue=" + c.ID)
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	require.Contains(t, res.Body, "<h1>Not found</h1>")
	require.NotContains(t, res.Body, "Ada Lovelace")
	require.NotContains(t, res.Body, "Their playbook")

	res = owner.post("/queue/skip", url.Values{"queue": {""}, "campaign_id": {c.ID}, "recipient_id": {added.RecipientID}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	page := owner.get(res.Header.Get("Location"))
	require.Contains(t, flash(page.Body), "1 could not be skipped:")
	require.Contains(t, flash(page.Body), added.RecipientID+":</strong> CampaignId: no campaign")
	items, err := h.env.App.Approvals.Queue(ctx, theirOwner, c.ID)
	require.NoError(t, err)
	require.Len(t, items, 1, "their person still waits")
}

func TestQueueFlashIsSignedForTheSession(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c, ids := h.queuedPlaybook("Renewals thank-you", ada)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	res := owner.post("/queue/skip", url.Values{"queue": {c.ID}, "campaign_id": {c.ID}, "recipient_id": {ids[0]}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	var planted *http.Cookie
	for _, ck := range res.Cookies() {
		if ck.Name == "giftwell_queue_flash" {
			planted = ck
		}
	}
	require.NotNil(t, planted)
	require.True(t, planted.HttpOnly)

	// Another session cannot show it: its MAC is keyed by the first session.
	other := h.client()
	other.signIn(h.env.OwnerEmail)
	u, err := url.Parse(h.site)
	require.NoError(t, err)
	other.http.Jar.SetCookies(u, []*http.Cookie{{Name: planted.Name, Value: planted.Value, Path: "/"}})
	require.Empty(t, flash(other.get("/?queue="+c.ID).Body))
	require.Contains(t, flash(owner.get("/?queue="+c.ID).Body), "Skipped Ada Lovelace.", "its own session shows it")

	// A tampered value shows nothing either.
	owner.http.Jar.SetCookies(u, []*http.Cookie{{Name: planted.Name, Value: "eyJhIjoiYXBwcm92ZSIsInEiOiIiLCJwIjoiQ2FsbCB1cyJ9.AAAA", Path: "/"}})
	require.Empty(t, flash(owner.get("/?queue=").Body))
}

func TestQueueOfAPausedPlaybookOrABatchSaysWhy(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c, _ := h.queuedPlaybook("Renewals thank-you", ada)
	paused := campaign.StatusPaused
	_, err := h.env.App.Campaigns.UpdateCampaign(context.Background(), h.ownerPrincipal(), c.ID, campaign.CampaignPatch{Status: &paused, ExpectedPolicyVersion: c.PolicyVersion})
	require.NoError(t, err)
	batch := h.createCampaign(campaign.CampaignInput{Name: "Board gifts", Mode: campaign.ModeBatch, ProductID: "gourmet-snack-crate",
		SenderName: "S", SenderCompany: "A", BudgetCents: 100000, PerPersonCents: 9000, MaxSends: 10, Message: "Hello {{firstName}}",
		Recipients: []campaign.RecipientInput{{Name: "Di Dane"}}})
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)

	res := owner.get("/?queue=" + c.ID)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Contains(t, res.Body, `id="queue-off"`)
	require.Contains(t, res.Body, `href="/campaigns/`+c.ID+`?review=1"`)
	require.Contains(t, res.Body, `id="queue-empty"`, "a paused playbook's people are held out")

	res = owner.get("/?queue=" + batch.ID)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Contains(t, res.Body, "Board gifts is a batch, not a playbook: only playbooks have an approval queue.")
	require.NotContains(t, res.Body, "Di Dane")
}
