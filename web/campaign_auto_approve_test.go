package web_test

import (
	"html"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
)

func TestBrowserAutoApproveTurnsOnAndOff(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.draftPlaybook()
	b := newBrowser(t)
	b.signIn(h.site, h.env.OwnerEmail)

	page := h.site + "/campaigns/" + c.ID
	require.Equal(t, page, b.open(page))
	require.Equal(t, "Auto-approve", b.text("#auto-approve-title"))
	require.Equal(t, "Off: every person waits until an owner or admin approves their gift.", b.text("#auto-approve-rule"))
	require.False(t, b.exists("#auto-approve-off"))
	require.False(t, b.exists("#auto-approve-role"), "the owner may turn it on")

	now := h.env.Clock.Now() // the app's clock stands still during the test
	b.fill("perGift", "100")
	b.fill("monthlyBudget", "1,500.50")
	require.EqualValues(t, 200, b.submit("#auto-approve-on"))
	require.Equal(t, page+"?done=auto-approve-on#auto-approve", b.location())
	require.Equal(t, "On: gifts up to $100.00 each are approved without a person, within a monthly budget of $1,500.50 and the balance. Turned on "+
		now.UTC().Format("2 Jan 2006, 15:04")+" UTC.", b.text("#auto-approve-rule"))
	require.Equal(t, "100.00", b.value("perGift"), "the form shows the limits now")
	require.Equal(t, "Save limits", b.text("#auto-approve-on"))
	stored := h.readCampaign(c.ID)
	require.NotNil(t, stored.AutoApprove)
	require.True(t, now.Equal(*stored.AutoApprove.EnabledAt), "enabledAt %v, now %v", stored.AutoApprove.EnabledAt, now)
	stored.AutoApprove.EnabledAt = nil
	require.Equal(t, &campaign.AutoApprove{Enabled: true, PerGiftMaxCents: 10_000, EnabledBy: h.env.OwnerID}, stored.AutoApprove)
	require.EqualValues(t, 150_050, *stored.MonthlyBudgetCents)
	require.Equal(t, c.PolicyVersion+1, stored.PolicyVersion)
	b.screenshot("auto-approve-on")

	require.EqualValues(t, 200, b.submit("#auto-approve-off"))
	require.Equal(t, "Off: every person waits until an owner or admin approves their gift. Its limits are kept: $100.00 per gift, a monthly budget of $1,500.50.",
		b.text("#auto-approve-rule"))
	require.False(t, h.readCampaign(c.ID).AutoApprove.Enabled)
}

func TestAutoApproveFormRefusals(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.draftPlaybook()
	v := strconv.FormatInt(c.PolicyVersion, 10)
	path := "/campaigns/" + c.ID + "/auto-approve"
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)

	// Problems are shown next to their field, in dollars, with the values kept.
	res := owner.post(path, url.Values{"enabled": {"true"}, "perGift": {"100"}, "monthlyBudget": {""}, "policyVersion": {v}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	body := html.UnescapeString(res.Body)
	require.Contains(t, body, "Enter a monthly budget to turn auto-approve on.")
	require.Regexp(t, `id="monthlyBudget"[^>]*aria-invalid="true"`, body)
	require.Contains(t, body, `value="100"`)
	res = owner.post(path, url.Values{"enabled": {"true"}, "perGift": {"600"}, "monthlyBudget": {"500"}, "policyVersion": {v}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	require.Regexp(t, `id="perGift"[^>]*aria-invalid="true"`, res.Body)
	require.Contains(t, html.UnescapeString(res.Body), "no more than the monthly budget")
	res = owner.post(path, url.Values{"enabled": {"true"}, "perGift": {"ten"}, "monthlyBudget": {"500"}, "policyVersion": {v}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	require.Regexp(t, `id="perGift"[^>]*aria-invalid="true"`, res.Body)

	// A stale version changes nothing.
	res = owner.post(path, url.Values{"enabled": {"true"}, "perGift": {"100"}, "monthlyBudget": {"500"}, "policyVersion": {strconv.FormatInt(c.PolicyVersion+1, 10)}})
	require.Equal(t, http.StatusConflict, res.StatusCode)
	require.Contains(t, res.Body, "This campaign changed since you loaded it")

	// A member may not turn it on, and is told so on the page.
	member := h.env.AddPerson(t, core.RoleMember)
	m := h.client()
	m.signIn(member.Email)
	page := m.get("/campaigns/" + c.ID)
	require.Contains(t, page.Body, `id="auto-approve-role"`)
	res = m.post(path, url.Values{"enabled": {"true"}, "perGift": {"100"}, "monthlyBudget": {"500"}, "policyVersion": {v}})
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	require.Nil(t, h.readCampaign(c.ID).AutoApprove)

	// The owner turns it on; the member lowers it.
	res = owner.post(path, url.Values{"enabled": {"true"}, "perGift": {"100"}, "monthlyBudget": {"500"}, "policyVersion": {v}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	on := h.readCampaign(c.ID)
	res = m.post(path, url.Values{"enabled": {"true"}, "perGift": {"50"}, "monthlyBudget": {""}, "policyVersion": {strconv.FormatInt(on.PolicyVersion, 10)}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	lowered := h.readCampaign(c.ID)
	require.EqualValues(t, 5_000, lowered.AutoApprove.PerGiftMaxCents)
	require.EqualValues(t, 50_000, *lowered.MonthlyBudgetCents, "an empty budget keeps the stored one")

	// A batch has no auto-approve panel.
	batch := h.createCampaign(campaign.CampaignInput{Name: "Board gifts", Mode: campaign.ModeBatch, ProductID: "gourmet-snack-crate",
		SenderName: "S", SenderCompany: "A", BudgetCents: 100000, PerPersonCents: 9000, MaxSends: 10})
	require.NotContains(t, owner.get("/campaigns/"+batch.ID).Body, `id="auto-approve"`)
}
