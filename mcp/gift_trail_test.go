package mcp_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
)

// TestGiftSaysWhoPreparedAndDecidedOverMCP: get_send over MCP names who
// prepared each gift and who decided it: a key's add auto-approved by the
// rule at its policy version, and a connected app's add approved by the
// signed-in owner.
func TestGiftSaysWhoPreparedAndDecidedOverMCP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := setup(t)
	app := b.env.App
	key := agent{t: t, cs: b.connect(t, "/mcp", b.env.OwnerKey, "2026-07-28")}
	conn := agent{t: t, cs: b.connect(t, "/mcp", connAll, "2026-07-28")}
	_, owner := b.env.SignIn(t, b.env.OwnerEmail)
	b.env.TopUp(t, owner, 100_000)
	trail := func(label string, g map[string]any) {
		raw, err := json.Marshal(map[string]any{"preparedBy": g["preparedBy"], "decidedBy": g["decidedBy"], "decidedAt": g["decidedAt"]})
		require.NoError(t, err)
		t.Logf("%s: %s", label, raw)
	}

	// A key's add, auto-approved.
	auto := activePlaybook(t, b, key, owner, "Closed-won thanks", true)
	added := key.ok("add_to_playbook", map[string]any{"id": auto, "recipient": map[string]any{"name": "Priya Raman", "email": "priya@example.com"}})
	approvalOf := added["approval"].(map[string]any)
	require.Equal(t, "auto_approved", approvalOf["state"])
	g := key.ok("get_send", map[string]any{"id": approvalOf["sendId"]})
	trail("key, auto-approved", g)
	kp, err := app.Connect.Authenticate(ctx, b.env.OwnerKey)
	require.NoError(t, err)
	var keyName string
	require.NoError(t, app.DB.QueryRow(ctx, `SELECT name FROM api_keys WHERE id = $1`, kp.CredentialID).Scan(&keyName))
	require.Equal(t, map[string]any{"kind": "key", "name": keyName, "personEmail": b.env.OwnerEmail}, g["preparedBy"])
	decided := g["decidedBy"].(map[string]any)
	require.Equal(t, "rule", decided["kind"])
	require.Equal(t, "Auto-approve", decided["name"])
	got := key.ok("get_campaign", map[string]any{"id": auto})
	require.Equal(t, got["policyVersion"], decided["ruleVersion"], "the rule at the playbook's policy version")
	require.NotEmpty(t, g["decidedAt"])

	// A connected app's add, approved by the signed-in owner.
	manual := activePlaybook(t, b, key, owner, "Renewals", false)
	waiting := conn.ok("add_to_playbook", map[string]any{"id": manual, "recipient": map[string]any{"name": "Sam Lee", "email": "sam@example.com"}})
	require.Equal(t, "waiting", waiting["approval"].(map[string]any)["state"])
	gift, err := app.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: manual, RecipientID: waiting["recipientId"].(string)})
	require.NoError(t, err)
	g = conn.ok("get_send", map[string]any{"id": gift.ID})
	trail("connection, approved by a person", g)
	require.Equal(t, map[string]any{"kind": "connection", "name": "Test assistant", "personEmail": b.env.OwnerEmail}, g["preparedBy"])
	decided = g["decidedBy"].(map[string]any)
	require.Equal(t, "person", decided["kind"])
	require.Equal(t, b.env.OwnerEmail, decided["email"])
	require.NotEmpty(t, decided["name"])
	require.NotContains(t, decided, "ruleVersion")
}

// activePlaybook has a create a playbook of the gourmet snack crate ($90 a
// gift) with a $10,000 monthly budget, which the signed-in owner turns on
// and, with autoApprove, gives auto-approve up to $100 a gift; it returns
// the playbook's ID.
func activePlaybook(t *testing.T, b *bundle, a agent, owner core.Principal, name string, autoApprove bool) string {
	t.Helper()
	ctx := context.Background()
	pb := a.ok("create_campaign", map[string]any{"name": name, "mode": "always_on", "productId": "gourmet-snack-crate",
		"senderName": "Sam", "senderCompany": "Acme", "message": "Thanks, {{firstName}}!", "monthlyBudgetCents": 1_000_000})
	id := pb["id"].(string)
	active := campaign.StatusActive
	_, err := b.env.App.Campaigns.UpdateCampaign(ctx, owner, id, campaign.CampaignPatch{Status: &active})
	require.NoError(t, err)
	if autoApprove {
		limit := int64(10_000)
		_, err := b.env.App.Approvals.SetAutoApprove(ctx, owner, id, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: &limit})
		require.NoError(t, err)
	}
	return id
}
