package mcp_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/sql/db"
)

// TestAgentAddsToPlaybookOverMCP: an agent adds people to an active
// playbook with the go-sdk client: waiting without auto-approve, an
// idempotent resend, auto_approved once a person turned auto-approve on and
// funded the balance, and the refusals it must handle; it can never approve.
func TestAgentAddsToPlaybookOverMCP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := setup(t)
	app := b.env.App
	a := agent{t: t, cs: b.connect(t, "/mcp", b.env.OwnerKey, "2026-07-28")}
	_, owner := b.env.SignIn(t, b.env.OwnerEmail)

	pb := a.ok("create_campaign", map[string]any{"name": "Closed-won thanks", "mode": "always_on", "productId": "gourmet-snack-crate",
		"senderName": "Sam", "senderCompany": "Acme", "message": "Thanks, {{firstName}}!", "monthlyBudgetCents": 50_000})
	id := pb["id"].(string)
	ana := map[string]any{"name": "Ana Alvarez", "sourceSystem": "hubspot", "externalId": "301", "email": "ana@example.com"}

	// A draft playbook: PLAYBOOK_OFF with its review page.
	env := a.fails("add_to_playbook", map[string]any{"id": id, "recipient": ana}, core.CodePlaybookOff)
	require.Equal(t, pb["reviewUrl"], env["url"])
	require.Equal(t, "open_url", env["nextAction"])
	active := campaign.StatusActive
	_, err := app.Campaigns.UpdateCampaign(ctx, owner, id, campaign.CampaignPatch{Status: &active})
	require.NoError(t, err)

	added := a.ok("add_to_playbook", map[string]any{"id": id, "recipient": ana})
	require.Equal(t, true, added["queued"])
	require.Equal(t, false, added["alreadyQueued"])
	require.Equal(t, b.env.SiteURL+"/?queue="+id, added["approvalUrl"])
	require.Equal(t, map[string]any{"state": "waiting", "reason": "auto_approve_off"}, added["approval"])
	again := a.ok("add_to_playbook", map[string]any{"id": id, "recipient": ana})
	require.Equal(t, true, again["alreadyQueued"])
	require.Equal(t, added["recipientId"], again["recipientId"])

	// Agents never approve.
	env = a.fails("approve_gift", map[string]any{"campaignId": id, "recipientId": added["recipientId"]}, core.CodeHumanApprovalRequired)
	require.Equal(t, b.env.SiteURL+"/?queue="+id, env["url"])
	a.fails("skip_gift", map[string]any{"campaignId": id, "recipientId": added["recipientId"]}, core.CodeHumanApprovalRequired)

	// Refusals named by field.
	env = a.fails("add_to_playbook", map[string]any{"id": id, "recipient": map[string]any{"name": "Bo", "zip": "1"}}, core.CodeValidation)
	require.Contains(t, env["error"], "recipient.addressMode: ")
	env = a.fails("add_to_playbook", map[string]any{"id": id, "recipient": map[string]any{"name": "Bo", "message": "Hi {{company}}"}}, core.CodeRecipientMessageRequired)
	require.Contains(t, env["error"], "recipient.message: ")

	// Auto-approve on and funds: the next person is auto-approved.
	rule, err := json.Marshal(campaign.AutoApprove{Enabled: true, PerGiftMaxCents: 10_000, EnabledBy: b.env.OwnerID})
	require.NoError(t, err)
	_, err = db.New(app.DB).CampaignSetAutoApprove(ctx, db.CampaignSetAutoApproveParams{AutoApprove: rule, UpdatedAt: b.env.Clock.Now(), WorkspaceID: b.env.WorkspaceID, ID: id})
	require.NoError(t, err)
	s, err := app.Ledger.CreateBalanceTopup(ctx, owner, ledger.TopupParams{Cents: 20_000, IdempotencyKey: "mcp-topup-1"})
	require.NoError(t, err)
	require.NoError(t, app.Ledger.CompleteTopup(ctx, s.SessionID))
	ben := a.ok("add_to_playbook", map[string]any{"id": id, "recipient": map[string]any{"name": "Ben Baker", "sourceSystem": "hubspot", "externalId": "302"}})
	approval := ben["approval"].(map[string]any)
	require.Equal(t, "auto_approved", approval["state"])
	require.NotEmpty(t, approval["sendId"])
	// Ana, added again, is evaluated again.
	again = a.ok("add_to_playbook", map[string]any{"id": id, "recipient": ana})
	require.Equal(t, "auto_approved", again["approval"].(map[string]any)["state"])
	bal := a.ok("get_balance", map[string]any{})
	require.EqualValues(t, 2_000, bal["cents"])
}
