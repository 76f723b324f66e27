package tools_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestUpdateCampaignDryRunTool: update_campaign with dryRun on a live
// playbook with people waiting answers its first roster page as it is and
// dryRun: back to draft, the waiting people it holds, the next version.
func TestUpdateCampaignDryRunTool(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	pb := c.playbook("gourmet-snack-crate", obj{"message": "Thanks, {{firstName}}!"})
	id := pb["id"].(string)
	on := c.ok(c.session, "update_campaign", obj{"id": id, "status": "active"})
	on = c.ok(c.key, "update_campaign", obj{"id": id, "recipients": []obj{person("1"), person("2"), person("3")}})
	require.Equal(t, "active", on["status"])

	got := c.ok(c.key, "update_campaign", obj{"id": id, "dryRun": true, "meetingUrl": "https://meet.example.com/new", "expectedPolicyVersion": version(on)})
	require.Equal(t, "active", got["status"])
	require.Equal(t, version(on), version(got))
	require.Len(t, people(got), 3)
	dry := got["dryRun"].(obj)
	require.Equal(t, true, dry["returnsToDraft"])
	require.EqualValues(t, 3, dry["waitingPeople"])
	require.EqualValues(t, version(on)+1, dry["policyVersion"])

	// A dry run refuses what the edit would: a stale version.
	c.fails(c.key, "update_campaign", obj{"id": id, "dryRun": true, "meetingUrl": "https://meet.example.com/new", "expectedPolicyVersion": version(on) + 1}, "POLICY_CHANGED", "")
	require.Equal(t, "active", c.get(id)["status"])
}
