package mcp_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
)

// TestAgentResultsLeadOverMCP: the sequences over MCP with the
// go-sdk client. A name-only person sent three times is one waiting person
// (never three gifts); a waiting add carries the queue's blockers and
// topUpUrl while the balance is empty; a key's content edit of a live
// playbook says it returned to draft, and the next add meets PLAYBOOK_OFF.
func TestAgentResultsLeadOverMCP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := setup(t)
	app := b.env.App
	a := agent{t: t, cs: b.connect(t, "/mcp", b.env.OwnerKey, "2026-07-28")}
	_, owner := b.env.SignIn(t, b.env.OwnerEmail)
	show := func(label string, v any) {
		raw, err := json.Marshal(v)
		require.NoError(t, err)
		t.Logf("%s: %s", label, raw)
	}

	pb := a.ok("create_campaign", map[string]any{"name": "Closed-won thanks", "mode": "always_on", "productId": "gourmet-snack-crate",
		"senderName": "Sam", "senderCompany": "Acme", "message": "Thanks, {{firstName}}!"})
	id := pb["id"].(string)
	active := campaign.StatusActive
	_, err := app.Campaigns.UpdateCampaign(ctx, owner, id, campaign.CampaignPatch{Status: &active})
	require.NoError(t, err)

	// A name-only resend: one person, flagged as already queued.
	priya := map[string]any{"id": id, "recipient": map[string]any{"name": "Priya Raman"}}
	first := a.ok("add_to_playbook", priya)
	show("add_to_playbook {name: Priya Raman} #1", first)
	require.Equal(t, false, first["alreadyQueued"])
	require.Equal(t, "waiting", first["approval"].(map[string]any)["state"])
	// The empty balance blocks too, and the answer says where to add funds.
	require.Equal(t, []any{"Add funds"}, first["blockers"])
	require.Equal(t, b.env.SiteURL+"/balance", first["topUpUrl"])
	for n := 2; n <= 3; n++ {
		again := a.ok("add_to_playbook", priya)
		show("add_to_playbook {name: Priya Raman} #"+string(rune('0'+n)), again)
		require.Equal(t, true, again["alreadyQueued"])
		require.Equal(t, first["recipientId"], again["recipientId"])
	}
	queue := a.ok("list_queue", map[string]any{"campaignId": id})
	require.Len(t, queue["items"], 1, "one waiting person, one gift at most")
	require.Equal(t, first["blockers"], queue["items"].([]any)[0].(map[string]any)["blockers"])

	// A note over 500 characters is RECIPIENT_MESSAGE_REQUIRED, as the spec's table says.
	long := make([]byte, 600)
	for i := range long {
		long[i] = 'x'
	}
	env := a.fails("add_to_playbook", map[string]any{"id": id, "recipient": map[string]any{"name": "Bo", "message": string(long)}}, core.CodeRecipientMessageRequired)
	require.Equal(t, "ask_user", env["nextAction"])

	// A key's content edit of the live playbook: the answer says it is a draft now.
	got := a.ok("get_campaign", map[string]any{"id": id})
	edited := a.ok("update_campaign", map[string]any{"id": id, "message": "Thank you, {{firstName}}!", "expectedPolicyVersion": got["policyVersion"]})
	show("update_campaign statusChange", edited["statusChange"])
	require.Equal(t, "draft", edited["status"])
	change := edited["statusChange"].(map[string]any)
	require.Equal(t, "active", change["from"])
	require.Equal(t, "draft", change["to"])
	require.Equal(t, pb["reviewUrl"], change["reviewUrl"])
	env = a.fails("add_to_playbook", priya, core.CodePlaybookOff)
	require.Equal(t, pb["reviewUrl"], env["url"])
	again := a.ok("get_campaign", map[string]any{"id": id})
	require.NotContains(t, again, "statusChange", "reads never carry a status change")
}
