package mcp_test

import (
	"context"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

// agent is a go-sdk client session doing what an agent does.
type agent struct {
	t  *testing.T
	cs *sdk.ClientSession
}

// call calls a tool and returns structuredContent (checked to equal the
// text content).
func (a agent) call(name string, args map[string]any) (map[string]any, bool) {
	a.t.Helper()
	res, err := a.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	require.NoError(a.t, err)
	return sameJSON(a.t, res), res.IsError
}

// ok calls a tool that must succeed and returns its data.
func (a agent) ok(name string, args map[string]any) map[string]any {
	a.t.Helper()
	out, isError := a.call(name, args)
	require.False(a.t, isError, "%s: %v", name, out)
	data, _ := out["data"].(map[string]any)
	return data
}

// fails calls a tool that must fail with code and returns the envelope.
func (a agent) fails(name string, args map[string]any, code core.Code) map[string]any {
	a.t.Helper()
	out, isError := a.call(name, args)
	require.True(a.t, isError, "%s: %v", name, out)
	requireEnvelope(a.t, out, code)
	return out
}

// TestAgentPreparesCampaigns is an agent's session over MCP (2026-07-28):
// it searches a gift, creates a playbook and a batch, adds people with every
// identity form, recovers from POLICY_CHANGED and IDEMPOTENCY_CONFLICT, and
// previews.
func TestAgentPreparesCampaigns(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := agent{t: t, cs: b.connect(t, "/mcp", b.env.OwnerKey, "2026-07-28")}

	// The tools are listed with their annotations.
	list, err := a.cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	listed := map[string]*sdk.Tool{}
	for _, tl := range list.Tools {
		listed[tl.Name] = tl
	}
	for _, name := range []string{"list_campaigns", "get_campaign", "preview_campaign", "get_campaign_repeats", "create_campaign", "update_campaign", "add_recipients", "manage_recipients"} {
		require.Contains(t, listed, name)
	}
	require.NotContains(t, listed, "approve_campaign_repeats", "signed-in tools are not listed to keys")
	require.True(t, listed["preview_campaign"].Annotations.ReadOnlyHint)
	require.True(t, *listed["update_campaign"].Annotations.DestructiveHint)

	// Search a gift.
	found := a.ok("search_gifts", map[string]any{"query": "engraved desk", "requireKnownShipping": true})
	productID := found["nextStep"].(map[string]any)["productId"].(string)
	require.Equal(t, "engraved-walnut-desk-organizer", productID)

	// A playbook.
	pb := a.ok("create_campaign", map[string]any{
		"name": "Closed-won thanks", "mode": "always_on", "productId": productID, "senderName": "Sam Seller", "senderCompany": "Acme",
		"message": "Congratulations on the launch, {{firstName}}!", "customization": map[string]any{"displayText": "Welcome aboard\n2026"},
		"idempotencyKey": "playbook-closed-won-01",
	})
	require.Equal(t, "draft", pb["status"])
	pid := pb["id"].(string)
	env := a.fails("update_campaign", map[string]any{"id": pid, "status": "active", "expectedPolicyVersion": 1}, core.CodeHumanApprovalRequired)
	require.Equal(t, pb["reviewUrl"], env["url"])

	// The same key with another body: IDEMPOTENCY_CONFLICT; the identical body: the same campaign.
	env = a.fails("create_campaign", map[string]any{
		"name": "Closed-won thanks v2", "mode": "always_on", "productId": productID, "senderName": "Sam Seller", "senderCompany": "Acme",
		"idempotencyKey": "playbook-closed-won-01",
	}, core.CodeIdempotencyConflict)
	require.Contains(t, env["error"], "idempotencyKey")
	again := a.ok("create_campaign", map[string]any{
		"name": "Closed-won thanks", "mode": "always_on", "productId": productID, "senderName": "Sam Seller", "senderCompany": "Acme",
		"message": "Congratulations on the launch, {{firstName}}!", "customization": map[string]any{"displayText": "Welcome aboard\n2026"},
		"idempotencyKey": "playbook-closed-won-01",
	})
	require.Equal(t, pid, again["id"])

	// A batch, with people of every identity form.
	batch := a.ok("create_campaign", map[string]any{
		"name": "Q3 customers", "mode": "batch", "productId": "gourmet-snack-crate", "senderName": "Sam Seller", "senderCompany": "Acme",
		"budgetCents": 45000, "perPersonCents": 9000, "maxSends": 5, "message": "Thanks for a great quarter, {{firstName}}",
		"idempotencyKey": "batch-q3-customers-01",
	})
	bid := batch["id"].(string)
	added := a.ok("add_recipients", map[string]any{"id": bid, "expectedPolicyVersion": 1, "recipients": []any{
		map[string]any{"name": "Ana Alvarez", "email": "ana@example.com", "company": "Acme"},
		map[string]any{"profileUrl": "https://www.linkedin.com/in/ben-baker", "message": "Ben, thank you for everything"},
		map[string]any{"sourceSystem": "hubspot", "externalId": "301", "name": "Cleo Chen"},
		map[string]any{"name": "Dev Das", "addressMode": "known", "address": "500 Congress Ave", "city": "Austin", "state": "TX", "zip": "78701"},
	}})
	require.Len(t, added["added"], 4)
	v := added["policyVersion"].(float64)
	require.EqualValues(t, 2, v)

	// An edit with the old version: POLICY_CHANGED; reread and retry.
	env = a.fails("update_campaign", map[string]any{"id": bid, "name": "Q3 customers (NA)", "expectedPolicyVersion": 1}, core.CodePolicyChanged)
	require.Equal(t, true, env["retryable"])
	current := a.ok("get_campaign", map[string]any{"id": bid})
	require.Len(t, current["recipients"], 4)
	updated := a.ok("update_campaign", map[string]any{"id": bid, "name": "Q3 customers (NA)", "expectedPolicyVersion": current["policyVersion"]})
	require.Equal(t, "Q3 customers (NA)", updated["name"])
	require.EqualValues(t, 3, updated["policyVersion"])

	// A bad person is refused by path and nothing changes.
	env = a.fails("add_recipients", map[string]any{"id": bid, "expectedPolicyVersion": 3, "recipients": []any{
		map[string]any{"name": "Eve", "profileUrl": "https://www.linkedin.com/sales/lead/ACwAAB"},
	}}, core.CodeValidation)
	require.Contains(t, env["error"], "recipients[0].profileUrl: ")

	// Preview: 4 people at 9000, nothing blocking in test mode.
	preview := a.ok("preview_campaign", map[string]any{"id": bid})
	require.EqualValues(t, 4, preview["recipientCount"])
	require.EqualValues(t, 9000, preview["unitCents"])
	require.EqualValues(t, 36000, preview["totalCents"])
	require.Empty(t, preview["blockers"])
	require.Equal(t, "review", preview["nextAction"])
	require.Len(t, preview["fulfillmentRequirements"], 3, "three people confirm their own address")

	all := a.ok("get_campaign", map[string]any{"id": bid})
	require.EqualValues(t, 3, all["policyVersion"], "reads and previews change nothing")
	out, isError := a.call("list_campaigns", map[string]any{})
	require.False(t, isError)
	require.Len(t, out["data"], 2)
}

// TestConnectionsPrepareDrafts: a sign-in connection creates and edits
// drafts, and cannot pause or turn on.
func TestConnectionsPrepareDrafts(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := agent{t: t, cs: b.connect(t, "/mcp", connAll, "2025-11-25")}
	pb := a.ok("create_campaign", map[string]any{"name": "From the assistant", "mode": "always_on", "productId": "gourmet-snack-crate", "senderName": "S", "senderCompany": "A"})
	got := a.ok("update_campaign", map[string]any{"id": pb["id"], "message": "Hi {{firstName}}", "expectedPolicyVersion": 1})
	require.Equal(t, "draft", got["status"])
	env := a.fails("update_campaign", map[string]any{"id": pb["id"], "status": "paused", "expectedPolicyVersion": 2}, core.CodeHumanApprovalRequired)
	require.Equal(t, pb["reviewUrl"], env["url"])

	// A read-only connection sees no write tools.
	ro := agent{t: t, cs: b.connect(t, "/mcp", connRead, "2025-11-25")}
	list, err := ro.cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	for _, tl := range list.Tools {
		require.NotEqual(t, "create_campaign", tl.Name)
	}
	require.EqualValues(t, 2, ro.ok("get_campaign", map[string]any{"id": pb["id"]})["policyVersion"])
}
