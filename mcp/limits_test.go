package mcp_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
)

// TestAutoApproveLimitsOverMCP is hardening finding 1 on MCP, whose callers
// are keys and connections: with auto-approve on, update_campaign raising a
// limit that bounds its spending is HUMAN_APPROVAL_REQUIRED with the review
// page (the owner's key, a member's key, a connection), and the playbook
// stays on with the owner's limits; a key's lowering is the spec's key
// edit (back to draft).
func TestAutoApproveLimitsOverMCP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := setup(t)
	_, owner := b.env.SignIn(t, b.env.OwnerEmail)
	c, err := b.env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{
		Name: "Auto", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "S", SenderCompany: "A", Message: "Thanks, {{firstName}}!", BudgetCents: 18000, MaxSends: 2, MonthlyBudgetCents: 50000,
	})
	require.NoError(t, err)
	c, err = b.env.App.Approvals.SetAutoApprove(ctx, owner, c.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](10000)})
	require.NoError(t, err)
	member := b.env.AddPerson(t, core.RoleMember)
	review := b.env.SiteURL + "/campaigns/" + c.ID + "?review=1"

	for _, token := range []string{b.env.OwnerKey, member.Key, connAll} {
		a := agent{t: t, cs: b.connect(t, "/mcp", token, "2026-07-28")}
		for _, args := range []map[string]any{
			{"budgetCents": 100000000, "maxSends": 2000},
			{"perPersonCents": 9001},
			{"monthlyBudgetCents": 50001},
		} {
			args["id"], args["expectedPolicyVersion"] = c.ID, c.PolicyVersion
			env := a.fails("update_campaign", args, core.CodeHumanApprovalRequired)
			require.Equal(t, review, env["url"])
		}
	}
	got, err := b.env.App.Campaigns.GetCampaign(ctx, owner, c.ID)
	require.NoError(t, err)
	require.Equal(t, campaign.StatusActive, got.Status)
	require.True(t, got.AutoApprove.Enabled)
	require.EqualValues(t, 18000, got.BudgetCents)
	require.EqualValues(t, 2, got.MaxSends)
	require.EqualValues(t, 50000, *got.MonthlyBudgetCents)
	require.Equal(t, c.PolicyVersion, got.PolicyVersion)

	// A key lowers a limit: the spec's key edit, back to draft.
	a := agent{t: t, cs: b.connect(t, "/mcp", member.Key, "2026-07-28")}
	low := a.ok("update_campaign", map[string]any{"id": c.ID, "budgetCents": 9000, "expectedPolicyVersion": c.PolicyVersion})
	require.Equal(t, "draft", low["status"])
	require.EqualValues(t, 9000, low["budgetCents"])
}
