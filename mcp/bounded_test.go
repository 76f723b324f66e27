package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/sql/db"
)

// TestRosterReadPageByPage: a 600-person playbook comes back over MCP a
// page at a time: writes and get_campaign carry at most rosterLimit people
// (50 by default, under about 50 KB), rosterCounts and rosterNextCursor,
// and the pages together are the whole roster.
func TestRosterReadPageByPage(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := agent{t: t, cs: b.connect(t, "/mcp", b.env.OwnerKey, "2026-07-28")}
	pb := a.ok("create_campaign", map[string]any{"name": "Closed-won thanks", "mode": "always_on", "productId": "gourmet-snack-crate",
		"senderName": "Sam", "senderCompany": "Acme", "message": "Thanks, {{firstName}}!", "monthlyBudgetCents": 50_000})
	id := pb["id"].(string)
	batch := func(from, n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = map[string]any{"name": fmt.Sprintf("Person %d", from+i), "sourceSystem": "crm", "externalId": fmt.Sprint(from + i)}
		}
		return out
	}
	added := a.ok("add_recipients", map[string]any{"id": id, "expectedPolicyVersion": pb["policyVersion"], "recipients": batch(0, 500)})
	require.Len(t, added["added"], 500)
	require.Len(t, added["recipients"], campaign.DefaultRosterLimit)
	added = a.ok("add_recipients", map[string]any{"id": id, "expectedPolicyVersion": added["policyVersion"], "recipients": batch(500, 100)})
	require.Len(t, added["recipients"], campaign.DefaultRosterLimit)
	require.EqualValues(t, 600, added["rosterCounts"].(map[string]any)["total"])
	require.NotNil(t, added["rosterNextCursor"])

	first := a.ok("get_campaign", map[string]any{"id": id})
	raw, err := json.Marshal(first)
	require.NoError(t, err)
	require.Less(t, len(raw), 50_000, "a default page stays under about 50 KB")
	require.Len(t, first["recipients"], campaign.DefaultRosterLimit)

	seen := map[string]bool{}
	args := map[string]any{"id": id, "rosterLimit": 250}
	pages := 0
	for {
		page := a.ok("get_campaign", args)
		pages++
		require.EqualValues(t, 600, page["recipientCount"])
		require.Equal(t, map[string]any{"total": 600.0, "gifted": 0.0}, page["rosterCounts"])
		for _, r := range page["recipients"].([]any) {
			rid := r.(map[string]any)["recipientId"].(string)
			require.False(t, seen[rid], "read twice: %s", rid)
			seen[rid] = true
		}
		if page["rosterNextCursor"] == nil {
			break
		}
		args["rosterCursor"] = page["rosterNextCursor"]
	}
	require.Equal(t, 3, pages)
	require.Len(t, seen, 600)

	// The cursor is bound to its campaign.
	other := a.ok("create_campaign", map[string]any{"name": "Other", "mode": "always_on", "productId": "gourmet-snack-crate", "senderName": "Sam", "senderCompany": "Acme"})
	env := a.fails("get_campaign", map[string]any{"id": other["id"], "rosterCursor": first["rosterNextCursor"]}, "VALIDATION_ERROR")
	require.Contains(t, env["error"], "rosterCursor")
}

// TestDryRunAddOverMCP: with auto-approve on and a low balance, a dry-run
// add answers waiting for low_balance with the blocker, the top-up page
// and the price, and writes nothing.
func TestDryRunAddOverMCP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := setup(t)
	app := b.env.App
	a := agent{t: t, cs: b.connect(t, "/mcp", b.env.OwnerKey, "2026-07-28")}
	_, owner := b.env.SignIn(t, b.env.OwnerEmail)
	pb := a.ok("create_campaign", map[string]any{"name": "Closed-won thanks", "mode": "always_on", "productId": "gourmet-snack-crate",
		"senderName": "Sam", "senderCompany": "Acme", "message": "Thanks, {{firstName}}!", "monthlyBudgetCents": 50_000})
	id := pb["id"].(string)
	active := campaign.StatusActive
	_, err := app.Campaigns.UpdateCampaign(ctx, owner, id, campaign.CampaignPatch{Status: &active})
	require.NoError(t, err)
	rule, err := json.Marshal(campaign.AutoApprove{Enabled: true, PerGiftMaxCents: 10_000, EnabledBy: b.env.OwnerID})
	require.NoError(t, err)
	_, err = db.New(app.DB).CampaignSetAutoApprove(ctx, db.CampaignSetAutoApproveParams{AutoApprove: rule, UpdatedAt: b.env.Clock.Now(), WorkspaceID: b.env.WorkspaceID, ID: id})
	require.NoError(t, err)
	s, err := app.Ledger.CreateBalanceTopup(ctx, owner, ledger.TopupParams{Cents: 2_500, IdempotencyKey: "mcp-dry-topup"})
	require.NoError(t, err)
	require.NoError(t, app.Ledger.CompleteTopup(ctx, s.SessionID))

	counts := func() map[string]int {
		out := map[string]int{}
		for _, table := range []string{"recipients", "sends", "ledger_entries", "events", "river_job"} {
			var n int
			require.NoError(t, app.DB.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&n), table)
			out[table] = n
		}
		return out
	}
	before := counts()
	dry := a.ok("add_to_playbook", map[string]any{"id": id, "dryRun": true,
		"recipient": map[string]any{"name": "Ana Alvarez", "sourceSystem": "hubspot", "externalId": "301"}})
	require.Equal(t, before, counts(), "a dry run writes nothing")
	require.Equal(t, true, dry["dryRun"])
	require.Equal(t, false, dry["queued"])
	require.Empty(t, dry["recipientId"])
	require.Equal(t, map[string]any{"state": "waiting", "reason": "low_balance"}, dry["approval"])
	require.Contains(t, dry["blockers"], campaign.ReasonLowBalance.Blocker())
	require.NotEmpty(t, dry["topUpUrl"])
	require.EqualValues(t, 9_000, dry["priceCents"])
	require.EqualValues(t, 0, a.ok("get_campaign", map[string]any{"id": id})["recipientCount"])
}
