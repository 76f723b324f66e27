package mcp_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
)

// TestStableIdentityOverMCP is hardening finding 2 on MCP: add_to_playbook,
// add_recipients and update_campaign refuse another externalId for a
// person who has one (RECIPIENT_IDENTITY_CONFLICT naming the field), and
// the safe resend finds the original person.
func TestStableIdentityOverMCP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := setup(t)
	_, owner := b.env.SignIn(t, b.env.OwnerEmail)
	pb, err := b.env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{Name: "Closed-won", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive,
		ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!"})
	require.NoError(t, err)
	a := agent{t: t, cs: b.connect(t, "/mcp", b.env.OwnerKey, "2026-07-28")}
	ida := func(externalID string) map[string]any {
		return map[string]any{"name": "Ida", "sourceSystem": "hubspot", "externalId": externalID, "email": "ida@example.com"}
	}
	requireNames := func(env map[string]any, field string) {
		t.Helper()
		require.Contains(t, env["error"], field+": ")
	}

	first := a.ok("add_to_playbook", map[string]any{"id": pb.ID, "recipient": ida("ida-1")})
	requireNames(a.fails("add_to_playbook", map[string]any{"id": pb.ID, "recipient": ida("ida-2")}, core.CodeRecipientIdentityConflict), "recipient.externalId")
	again := a.ok("add_to_playbook", map[string]any{"id": pb.ID, "recipient": map[string]any{"sourceSystem": "hubspot", "externalId": "ida-1"}})
	require.Equal(t, true, again["alreadyQueued"])
	require.Equal(t, first["recipientId"], again["recipientId"])

	batch := a.ok("create_campaign", map[string]any{"name": "Q3", "productId": "gourmet-snack-crate", "senderName": "S", "senderCompany": "A",
		"budgetCents": 90000, "perPersonCents": 9000, "maxSends": 10, "recipients": []any{ida("ida-1")}})
	id := batch["id"]
	requireNames(a.fails("add_recipients", map[string]any{"id": id, "expectedPolicyVersion": 1, "recipients": []any{ida("ida-2")}}, core.CodeRecipientIdentityConflict), "recipients[0].externalId")
	requireNames(a.fails("update_campaign", map[string]any{"id": id, "expectedPolicyVersion": 1, "recipients": []any{ida("ida-2")}}, core.CodeRecipientIdentityConflict), "recipients[0].externalId")
	skipped := a.ok("add_recipients", map[string]any{"id": id, "expectedPolicyVersion": 1, "recipients": []any{map[string]any{"sourceSystem": "hubspot", "externalId": "ida-1"}}})
	require.Empty(t, skipped["added"])
	require.Len(t, skipped["skipped"], 1)
}
