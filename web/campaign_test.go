package web_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
)

// createCampaign creates a draft through core with the owner's key, as an agent does.
func (h *harness) createCampaign(in campaign.CampaignInput) campaign.Campaign {
	h.t.Helper()
	key, err := h.env.App.Connect.Authenticate(context.Background(), h.env.OwnerKey)
	require.NoError(h.t, err)
	c, err := h.env.App.Campaigns.CreateCampaign(context.Background(), key, in)
	require.NoError(h.t, err)
	return c
}

// readCampaign is the campaign as the database holds it now.
func (h *harness) readCampaign(id string) campaign.Campaign {
	h.t.Helper()
	c, err := h.env.App.Campaigns.GetCampaign(context.Background(), h.ownerPrincipal(), id)
	require.NoError(h.t, err)
	return c
}

// draftPlaybook is a draft playbook of two people: Ada's note resolves,
// Bea has no company for {{company}}.
func (h *harness) draftPlaybook() campaign.Campaign {
	h.t.Helper()
	return h.createCampaign(campaign.CampaignInput{
		Name: "Renewals thank-you", Mode: campaign.ModeAlwaysOn, ProductID: "gourmet-snack-crate",
		SenderName: "Sam Sender", SenderCompany: "Acme", Message: "Thanks {{firstName}}, and all of {{company}}!",
		Recipients: []campaign.RecipientInput{
			{Name: "Ada Lovelace", Company: "Engines Ltd", Email: "ada@example.com"},
			{Name: "Bea Brown", SourceSystem: "hubspot", ExternalID: "42"},
		},
	})
}

func TestCampaignPageShowsRosterNotesAndBlockers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.draftPlaybook()
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)

	res := owner.get("/campaigns/" + c.ID)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	body := html.UnescapeString(res.Body)
	require.Contains(t, body, "Renewals thank-you")
	require.Contains(t, body, "Playbook")
	require.Contains(t, body, `badge-draft">Draft</span>`)
	require.Contains(t, body, "Gourmet")
	require.Contains(t, body, "$90.00 per gift", "price plus shipping, 7500 + 1500 cents")
	require.Contains(t, body, "Sam Sender, Acme")
	require.Contains(t, body, "Thanks {{firstName}}, and all of {{company}}!")
	require.Contains(t, body, "Thanks Ada, and all of Engines Ltd!", "Ada's note resolved")
	require.Contains(t, body, "ada@example.com")
	require.Contains(t, body, "hubspot 42")
	require.Contains(t, body, "Needs a note</span>: {{company}} has no value")
	require.Regexp(t, `id="blockers">\s*<li><strong>Bea Brown:</strong>`, body)
	require.Contains(t, body, "Recipient confirms address: The recipient confirms their address through the gift link.", "requirements in words")
	require.Less(t, indexOf(t, body, `id="roster-title"`), indexOf(t, body, `id="decision"`), "without ?review=1 the decision comes last")

	res = owner.get("/campaigns/" + c.ID + "?review=1")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Less(t, indexOf(t, res.Body, `id="decision"`), indexOf(t, res.Body, `id="details-title"`), "the decision leads")
	require.Contains(t, res.Body, `id="turn-on"`)
	require.Contains(t, res.Body, `name="policyVersion" value="`+strconv.FormatInt(c.PolicyVersion, 10)+`"`)

	list := owner.get("/campaigns")
	require.Equal(t, http.StatusOK, list.StatusCode)
	require.Contains(t, list.Body, `<a href="/campaigns/`+c.ID+`">Renewals thank-you</a>`)
	require.Contains(t, list.Body, `aria-current="page">Campaigns</a>`)
	home := owner.get("/")
	require.Contains(t, home.Body, `<a href="/campaigns/`+c.ID+`">Renewals thank-you</a>`)
}

func TestCampaignsListNewestFirst(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	first := h.draftPlaybook()
	h.env.Clock.Advance(time.Minute)
	second := h.createCampaign(campaign.CampaignInput{Name: "Later batch", Mode: campaign.ModeBatch, ProductID: "gourmet-snack-crate",
		SenderName: "S", SenderCompany: "A", BudgetCents: 100000, PerPersonCents: 9000, MaxSends: 10})
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	res := owner.get("/campaigns")
	require.Less(t, indexOf(t, res.Body, second.ID), indexOf(t, res.Body, first.ID))
}

func TestCampaignBatchDraftSaysCheckoutAndDeliveryExcluded(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.createCampaign(campaign.CampaignInput{Name: "Board gifts", Mode: campaign.ModeBatch, ProductID: "artisan-cheese-board",
		SenderName: "S", SenderCompany: "A", BudgetCents: 100000, PerPersonCents: 9000, MaxSends: 10, Message: "Hello {{firstName}}",
		Recipients: []campaign.RecipientInput{{Name: "Cy Clark"}}})
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	res := owner.get("/campaigns/" + c.ID + "?review=1")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, "Delivery not included")
	require.Contains(t, res.Body, "(delivery not included)")
	require.Contains(t, res.Body, `id="checkout-note"`)
	require.Contains(t, res.Body, `id="pay-and-launch"`)
	require.NotContains(t, res.Body, `id="turn-on"`)
	require.Contains(t, res.Body, "Batch")
}

func TestCampaignTurnOnAndPause(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.draftPlaybook()
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	v := strconv.FormatInt(c.PolicyVersion, 10)

	res := owner.post("/campaigns/"+c.ID+"/status", url.Values{"status": {"active"}, "policyVersion": {v}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	require.Equal(t, "/campaigns/"+c.ID+"?done=campaign-active", res.Header.Get("Location"))
	on := h.readCampaign(c.ID)
	require.Equal(t, campaign.StatusActive, on.Status)
	page := owner.get(res.Header.Get("Location"))
	require.Contains(t, page.Body, "The campaign is on.")
	require.Contains(t, page.Body, `id="pause"`)

	res = owner.post("/campaigns/"+c.ID+"/status", url.Values{"status": {"paused"}, "policyVersion": {strconv.FormatInt(on.PolicyVersion, 10)}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	require.Equal(t, campaign.StatusPaused, h.readCampaign(c.ID).Status)
}

func TestCampaignStaleVersionChangesNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.draftPlaybook()
	key, err := h.env.App.Connect.Authenticate(context.Background(), h.env.OwnerKey)
	require.NoError(t, err)
	name := "Renamed by the agent"
	changed, err := h.env.App.Campaigns.UpdateCampaign(context.Background(), key, c.ID, campaign.CampaignPatch{Name: &name, ExpectedPolicyVersion: c.PolicyVersion})
	require.NoError(t, err)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)

	res := owner.post("/campaigns/"+c.ID+"/status", url.Values{"status": {"active"}, "policyVersion": {strconv.FormatInt(c.PolicyVersion, 10)}})
	require.Equal(t, http.StatusConflict, res.StatusCode)
	require.Contains(t, res.Body, "This campaign changed since you loaded it")
	require.Contains(t, res.Body, name, "the page shows the campaign as it is now")
	after := h.readCampaign(c.ID)
	require.Equal(t, campaign.StatusDraft, after.Status)
	require.Equal(t, changed.PolicyVersion, after.PolicyVersion)
}

func TestCampaignOfAnotherWorkspaceIsNotFound(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.draftPlaybook()
	other := apptest.NewWorkspace(t, h.env.App, apptest.WorkspaceOptions{})
	stranger := h.client()
	stranger.signIn(other.OwnerEmail)

	require.Equal(t, http.StatusNotFound, stranger.get("/campaigns/"+c.ID).StatusCode)
	require.Equal(t, http.StatusNotFound, stranger.get("/campaigns/cmp_unknown").StatusCode)
	res := stranger.post("/campaigns/"+c.ID+"/status", url.Values{"status": {"active"}, "policyVersion": {strconv.FormatInt(c.PolicyVersion, 10)}})
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	require.Equal(t, campaign.StatusDraft, h.readCampaign(c.ID).Status)
	require.NotContains(t, stranger.get("/campaigns").Body, c.ID)
}

func TestCampaignCrossSitePostIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.draftPlaybook()
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	res := owner.post("/campaigns/"+c.ID+"/status", url.Values{"status": {"active"}, "policyVersion": {strconv.FormatInt(c.PolicyVersion, 10)}},
		"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	require.Equal(t, campaign.StatusDraft, h.readCampaign(c.ID).Status)
}

// indexOf is where sub first occurs in s; it fails the test when absent.
func indexOf(t *testing.T, s, sub string) int {
	t.Helper()
	i := strings.Index(s, sub)
	require.GreaterOrEqual(t, i, 0, "%q not found", sub)
	return i
}
