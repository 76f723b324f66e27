package web_test

import (
	"html"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

// TestAutoApproveFormKeepsLimitsFromMembers is hardening finding 1 in the
// web app, whose only limit form is the auto-approve panel (per gift and
// monthly budget; the app has no form for budgetCents, maxSends or
// perPersonCents): while it is on, a member's raise of either is 403 and
// changes nothing, a member's lowering saves, the owner's raise saves.
func TestAutoApproveFormKeepsLimitsFromMembers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.draftPlaybook()
	path := "/campaigns/" + c.ID + "/auto-approve"
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	res := owner.post(path, url.Values{"enabled": {"true"}, "perGift": {"100"}, "monthlyBudget": {"500"}, "policyVersion": {strconv.FormatInt(c.PolicyVersion, 10)}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	on := h.readCampaign(c.ID)
	v := strconv.FormatInt(on.PolicyVersion, 10)

	member := h.env.AddPerson(t, core.RoleMember)
	m := h.client()
	m.signIn(member.Email)
	for _, form := range []url.Values{
		{"enabled": {"true"}, "perGift": {"100.01"}, "monthlyBudget": {""}, "policyVersion": {v}},
		{"enabled": {"true"}, "perGift": {""}, "monthlyBudget": {"500.01"}, "policyVersion": {v}},
		{"enabled": {"true"}, "perGift": {"50"}, "monthlyBudget": {"100000"}, "policyVersion": {v}},
	} {
		res := m.post(path, form)
		require.Equal(t, http.StatusForbidden, res.StatusCode, res.Body)
		require.Contains(t, html.UnescapeString(res.Body), "Only an owner or admin can raise this while auto-approve is on", form)
		require.Equal(t, on, h.readCampaign(c.ID), "nothing changed")
	}

	res = m.post(path, url.Values{"enabled": {"true"}, "perGift": {"90"}, "monthlyBudget": {"400"}, "policyVersion": {v}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	low := h.readCampaign(c.ID)
	require.EqualValues(t, 9_000, low.AutoApprove.PerGiftMaxCents)
	require.EqualValues(t, 40_000, *low.MonthlyBudgetCents)
	res = owner.post(path, url.Values{"enabled": {"true"}, "perGift": {"200"}, "monthlyBudget": {"1000"}, "policyVersion": {strconv.FormatInt(low.PolicyVersion, 10)}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	require.EqualValues(t, 20_000, h.readCampaign(c.ID).AutoApprove.PerGiftMaxCents)
}
