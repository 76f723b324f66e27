package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAutoApproveLimitsOverREST is hardening finding 1 on REST: with
// auto-approve on, a signed-in member's PATCH that raises a limit bounding
// its spending is 403 TEAM_MANAGER_REQUIRED, a key's is 403
// HUMAN_APPROVAL_REQUIRED with the review page; the playbook stays on with
// the owner's limits. Lowering is open; the owner raises.
func TestAutoApproveLimitsOverREST(t *testing.T) {
	t.Parallel()
	h := newAutoApproveHarness(t)
	id := h.create(t, jsonObj{"name": "Auto", "mode": "always_on", "productId": "gourmet-snack-crate", "senderName": "S", "senderCompany": "A",
		"message": "Thanks, {{firstName}}!", "budgetCents": 18000, "maxSends": 2})
	res := h.set(t, id, `{"enabled":true,"perGiftMaxCents":10000,"monthlyBudgetCents":50000,"expectedPolicyVersion":1}`, h.as(h.owner)...)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	patch := func(body string, opts ...reqOpt) response {
		t.Helper()
		return h.do(http.MethodPatch, "/campaigns/"+id, strings.NewReader(body), append([]reqOpt{withJSON()}, opts...)...)
	}
	res = patch(`{"status":"active"}`, h.as(h.owner)...)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	requireOwnersLimits := func() {
		t.Helper()
		c := h.get("/campaigns/"+id, withKey(h.env.OwnerKey)).data().(jsonObj)
		require.Equal(t, "active", c["status"])
		require.Equal(t, true, c["autoApprove"].(jsonObj)["enabled"])
		require.EqualValues(t, 18000, c["budgetCents"])
		require.EqualValues(t, 2, c["maxSends"])
		require.EqualValues(t, 9000, c["perPersonCents"])
		require.EqualValues(t, 50000, c["monthlyBudgetCents"])
		require.EqualValues(t, 10000, c["autoApprove"].(jsonObj)["perGiftMaxCents"])
		require.EqualValues(t, 3, c["policyVersion"])
	}

	// The request of the finding.
	res = patch(`{"budgetCents":100000000,"maxSends":2000}`, h.as(h.member)...)
	requireRefused(t, res, http.StatusForbidden, "TEAM_MANAGER_REQUIRED", "budgetCents")
	require.Contains(t, res.message(), "maxSends: ")
	for body, field := range map[string]string{
		`{"perPersonCents":9001}`:      "perPersonCents",
		`{"monthlyBudgetCents":50001}`: "monthlyBudgetCents",
		`{"maxSends":3}`:               "maxSends",
	} {
		requireRefused(t, patch(body, h.as(h.member)...), http.StatusForbidden, "TEAM_MANAGER_REQUIRED", field)
	}
	requireRefused(t, h.set(t, id, `{"enabled":true,"perGiftMaxCents":10001}`, h.as(h.member)...), http.StatusForbidden, "TEAM_MANAGER_REQUIRED", "perGiftMaxCents")
	// Keys, the owner's or the member's.
	for _, key := range []string{h.env.OwnerKey, h.memberKey} {
		res = patch(`{"budgetCents":100000000,"maxSends":2000,"expectedPolicyVersion":3}`, withKey(key))
		requireRefused(t, res, http.StatusForbidden, "HUMAN_APPROVAL_REQUIRED", "budgetCents")
		require.Equal(t, h.site+"/campaigns/"+id+"?review=1", res.JSON["url"])
	}
	requireOwnersLimits()

	// Lowering is open to the member and keeps it on; the owner raises.
	res = patch(`{"budgetCents":17000,"monthlyBudgetCents":40000}`, h.as(h.member)...)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, "active", res.data().(jsonObj)["status"])
	res = patch(`{"budgetCents":100000000,"maxSends":2000}`, h.as(h.owner)...)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.EqualValues(t, 2000, res.data().(jsonObj)["maxSends"])
}
