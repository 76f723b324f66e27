package rest_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestUpdateCampaignDryRunOverREST: PATCH /campaigns/{id} with dryRun true
// answers what a key's edit of a live playbook would do (back to draft, the
// next version) and saves nothing; the same edit without dryRun does it.
func TestUpdateCampaignDryRunOverREST(t *testing.T) {
	t.Parallel()
	h := newAutoApproveHarness(t)
	id := h.create(t, jsonObj{"name": "Live", "mode": "always_on", "productId": "gourmet-snack-crate", "senderName": "S", "senderCompany": "A",
		"message": "Thanks, {{firstName}}!"})
	patch := func(body string, opts ...reqOpt) response {
		t.Helper()
		return h.do(http.MethodPatch, "/campaigns/"+id, strings.NewReader(body), append([]reqOpt{withJSON()}, opts...)...)
	}
	res := patch(`{"status":"active"}`, h.as(h.owner)...)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	version := res.data().(jsonObj)["policyVersion"]

	body := `{"meetingUrl":"https://meet.example.com/x","dryRun":true,"expectedPolicyVersion":` + strconv.FormatFloat(version.(float64), 'f', -1, 64) + `}`
	res = patch(body, withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	c := res.data().(jsonObj)
	require.Equal(t, "active", c["status"])
	require.Equal(t, version, c["policyVersion"])
	dry := c["dryRun"].(jsonObj)
	t.Logf("PATCH /campaigns/%s %s -> dryRun: %v", id, body, dry)
	require.Equal(t, true, dry["returnsToDraft"])
	require.Equal(t, []any{"status", "meetingUrl"}, dry["changes"])
	require.EqualValues(t, version.(float64)+1, dry["policyVersion"])
	require.Equal(t, "draft", dry["statusChange"].(jsonObj)["to"])

	got := h.get("/campaigns/"+id, withKey(h.env.OwnerKey)).data().(jsonObj)
	require.Equal(t, "active", got["status"])
	require.Equal(t, version, got["policyVersion"])
	require.NotContains(t, got, "dryRun")

	res = patch(strings.Replace(body, `"dryRun":true`, `"dryRun":false`, 1), withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, "draft", res.data().(jsonObj)["status"])
	require.NotContains(t, res.data().(jsonObj), "dryRun")
}
