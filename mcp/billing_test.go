package mcp_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/billing"
)

// An owner's agent reads billing over MCP with its key: the config (it
// cannot pay), the checkouts with their invoice links, and reconciles one;
// a member's key is refused; the signed-in tools are not in its list.
func TestBillingOverMCP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := setup(t)
	app := b.env.App
	_, owner := b.env.SignIn(t, b.env.OwnerEmail)
	batch := b.env.NewBatch(t, owner, 2)
	c, err := app.Billing.CreateCampaignCheckout(ctx, owner, batch.ID, billing.CheckoutParams{ExpectedPolicyVersion: batch.PolicyVersion, IdempotencyKey: "mcp-checkout-1"})
	require.NoError(t, err)

	a := agent{t: t, cs: b.connect(t, "/mcp", b.env.OwnerKey, "")}
	cfg := a.ok("get_billing_config", map[string]any{})
	require.Equal(t, map[string]any{"enabled": true, "mode": "sandbox", "canPay": false}, cfg)
	out, isError := a.call("list_invoices", map[string]any{"campaignId": batch.ID})
	require.False(t, isError, "%v", out)
	list := out["data"].([]any)
	require.Len(t, list, 1)
	require.Equal(t, "open", list[0].(map[string]any)["state"])
	got := a.ok("reconcile_campaign_checkout", map[string]any{"checkoutId": c.ID})
	require.Equal(t, "open", got["state"])
	a.fails("reconcile_campaign_checkout", map[string]any{"checkoutId": "chk_nope"}, core.CodeNotFound)

	tools, err := a.cs.ListTools(ctx, nil)
	require.NoError(t, err)
	for _, tool := range tools.Tools {
		require.NotContains(t, []string{"create_campaign_checkout", "cancel_campaign_checkout", "launch_campaign"}, tool.Name, "signed-in tools are not listed for keys")
	}

	_, memberKey := b.env.AddMember(t, core.RoleMember)
	m := agent{t: t, cs: b.connect(t, "/mcp", memberKey, "")}
	m.fails("list_invoices", map[string]any{}, core.CodeTeamManagerRequired)
}
