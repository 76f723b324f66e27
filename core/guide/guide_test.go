package guide_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/guide"
	"github.com/giftwell/giftwell/internal/apptest"
)

// guideApp is an App with no database: the guide reads none.
func guideApp() *giftwell.App {
	return giftwell.New(nil, core.Config{SiteURL: "https://gifts.example.com/"}, nil, nil)
}

func guideKeyPrincipal(role core.Role) core.Principal {
	return core.Principal{WorkspaceID: "ws_1", UserID: "usr_1", Role: role, Via: core.ViaKey, Mode: core.ModeTest}
}

func TestWorkflowGuideHasEveryField(t *testing.T) {
	t.Parallel()
	g, err := guideApp().Guide.WorkflowGuide(context.Background(), guideKeyPrincipal(core.RoleOwner))
	require.NoError(t, err)
	b, err := json.Marshal(g)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))

	// The spec's Workflow guide fields.
	for _, f := range []string{"mode", "connectorCanSend", "approvalRequired", "capabilities", "instructions", "apiBase",
		"mcpEndpoint", "reviewUrlTemplate", "documentation", "status", "usageOrder", "steps", "batchSteps",
		"approvalReasons", "tracking", "limits", "recovery", "recipientRequirements"} {
		require.Contains(t, m, f)
		if _, isBool := m[f].(bool); !isBool {
			require.NotEmpty(t, m[f], f)
		}
	}
	caps := m["capabilities"].(map[string]any)
	for _, f := range []string{"prepareCampaigns", "manageExistingInvitations", "manageWorkspaceWithinRole",
		"changeTeamMembersOrWebhooks", "purchaseOrAuthorizeNewSends", "prospectEmailAvailable", "privateLinks"} {
		require.IsType(t, true, caps[f], f)
	}
	require.Len(t, caps, 7)

	require.Equal(t, "test", m["mode"])
	require.Equal(t, "https://gifts.example.com/api/v1", m["apiBase"])
	require.Equal(t, "https://gifts.example.com/mcp", m["mcpEndpoint"])
	require.Equal(t, "https://gifts.example.com/campaigns/<campaign_id>?review=1", m["reviewUrlTemplate"])
	require.Equal(t, "https://gifts.example.com/api/v1/openapi.json", m["documentation"].(map[string]any)["openapi"])
	require.Equal(t, []any{"always_on", "batch", "single"}, m["usageOrder"])
	require.Len(t, m["steps"], 8, "the spec's eight-step playbook flow")
	require.Contains(t, g.Steps[2], "https://gifts.example.com/campaigns/<campaign_id>?review=1")
	require.NotEmpty(t, g.BatchSteps)

	// The limits, under the spec's names, with the spec's values.
	require.Equal(t, map[string]any{
		"recipientsPerCampaign":         500.0,
		"recipientsPerPlaybook":         2000.0,
		"giftMessageCharacters":         500.0,
		"requestBytes":                  1048576.0,
		"requestsPerWorkspacePerMinute": 240.0,
		"giftLinkExpiryDays":            14.0,
		"sourceUploadPartBytes":         150000.0,
		"sourceUploadParts":             384.0,
		"sourceUploadSerializedBytes":   33554432.0,
		"sourceUploadExpiryHours":       6.0,
	}, m["limits"])

	// An operator's limit is the one the guide reports.
	raised := giftwell.New(nil, core.Config{SiteURL: "https://gifts.example.com/", RateLimitPerMinute: 5000}, nil, nil)
	g, err = raised.Guide.WorkflowGuide(context.Background(), guideKeyPrincipal(core.RoleOwner))
	require.NoError(t, err)
	require.Equal(t, 5000, g.Limits.RequestsPerWorkspacePerMinute)

	// Every code has recovery text under its wire name, and nothing else does.
	recovery := m["recovery"].(map[string]any)
	wire := map[string]bool{}
	for _, c := range core.Codes() {
		wire[c.Wire()] = true
		require.NotEmpty(t, recovery[c.Wire()], "recovery for %s", c)
		require.Contains(t, recovery[c.Wire()], guide.RecoveryAction(c.Info().Recovery), "%s's text is part of %s's recovery", c, c.Wire())
		require.Contains(t, guide.RecoveryTexts()[c.Wire()], c.Info().Recovery, "%s's full text is part of %s's recovery resource", c, c.Wire())
	}
	require.Len(t, recovery, len(wire))
	for _, code := range []string{"AUTH_REQUIRED", "VALIDATION_ERROR", "NOT_FOUND", "RATE_LIMIT", "INTERNAL_ERROR",
		"INVALID_REQUEST", "CURSOR_STALE", "PERSONALIZATION_REQUIRED", "RECIPIENT_DETAILS_REQUIRED"} {
		require.Contains(t, recovery, code)
	}

	// The spec's three reasons and one per queue blocker.
	reasons := m["approvalReasons"].(map[string]any)
	for _, r := range []string{"auto_approve_off", "low_balance", "shipping_quote", "budget_cap", "playbook_budget",
		"send_limit", "repeat_review", "details_required", "personalization_required", "note_required",
		"portrait_required", "adult_confirmation", "address_required", "product_unverified", "needs_review",
		"artwork_required", "gift_unavailable"} {
		require.NotEmpty(t, reasons[r], r)
	}
	require.Len(t, reasons, len(campaign.ApprovalReasons()))

	req := m["recipientRequirements"].(map[string]any)
	for _, f := range []string{"identity", "address", "note", "details", "personalization", "artwork", "photo", "adult", "drafts"} {
		require.NotEmpty(t, req[f], f)
	}
	require.Contains(t, g.RecipientRequirements.Note, "500 characters")
	require.EqualValues(t, 500, guide.Rules().Note.MaxCharacters)

	// The deeper text is linked, as MCP resources.
	docs := m["documentation"].(map[string]any)
	require.Equal(t, "giftwell://guide/recovery", docs["recovery"])
	require.Equal(t, "giftwell://guide/recipients", docs["recipients"])
	require.Equal(t, "giftwell://guide/approval", docs["approval"])
}

// MaxGuideBytes bounds the workflow guide's structured content: an agent
// reads it first, once per session, and it must stay affordable.
const MaxGuideBytes = 12_000

// TestWorkflowGuideIsAffordable holds the guide, as JSON, within
// MaxGuideBytes for every kind of caller (a connection's and a demo's
// instructions are the longest), and keeps the text tool descriptions
// already give out of it.
func TestWorkflowGuideIsAffordable(t *testing.T) {
	t.Parallel()
	live := guideKeyPrincipal(core.RoleMember)
	live.Mode = core.ModeLive
	conn := guideKeyPrincipal(core.RoleOwner)
	conn.Via, conn.Scopes = core.ViaConnection, []core.Scope{core.ScopeRead}
	session := guideKeyPrincipal(core.RoleOwner)
	session.Via = core.ViaSession
	demo := session
	demo.IsDemo = true
	for name, p := range map[string]core.Principal{"key": guideKeyPrincipal(core.RoleOwner), "live": live, "connection": conn, "session": session, "demo": demo} {
		g, err := guideApp().Guide.WorkflowGuide(context.Background(), p)
		require.NoError(t, err, name)
		b, err := json.Marshal(g)
		require.NoError(t, err)
		require.LessOrEqual(t, len(b), MaxGuideBytes, "%s: the guide is %d bytes", name, len(b))
		t.Logf("%s: %d bytes", name, len(b))
		// The catalog's selection rules are search_gifts', not repeated here.
		require.NotContains(t, string(b), "priceCents 0 placeholder", name)
	}
}

func TestWorkflowGuideCapabilitiesFollowThePrincipal(t *testing.T) {
	t.Parallel()
	conn := func(scopes ...core.Scope) core.Principal {
		return core.Principal{WorkspaceID: "ws_1", UserID: "usr_1", Role: core.RoleOwner, Via: core.ViaConnection, Scopes: scopes, Mode: core.ModeTest}
	}
	session := func(role core.Role) core.Principal {
		return core.Principal{WorkspaceID: "ws_1", UserID: "usr_1", Role: role, Via: core.ViaSession, Mode: core.ModeLive}
	}
	cases := []struct {
		name string
		p    core.Principal
		want guide.Capabilities
	}{
		{"owner key", guideKeyPrincipal(core.RoleOwner), guide.Capabilities{PrepareCampaigns: true, ManageExistingInvitations: true, ManageWorkspaceWithinRole: true, PrivateLinks: true}},
		{"member key", guideKeyPrincipal(core.RoleMember), guide.Capabilities{PrepareCampaigns: true, ManageExistingInvitations: true, ManageWorkspaceWithinRole: true, PrivateLinks: true}},
		{"connection with every scope", conn(core.ScopeRead, core.ScopeWrite, core.ScopeLinks), guide.Capabilities{PrepareCampaigns: true, PrivateLinks: true}},
		{"older connection without links", conn(core.ScopeRead, core.ScopeWrite), guide.Capabilities{PrepareCampaigns: true}},
		{"read-only connection", conn(core.ScopeRead), guide.Capabilities{}},
		{"signed-in owner", session(core.RoleOwner), guide.Capabilities{PrepareCampaigns: true, ManageExistingInvitations: true, ManageWorkspaceWithinRole: true, ChangeTeamMembersOrWebhooks: true, PurchaseOrAuthorizeNewSends: true, PrivateLinks: true}},
		{"signed-in member", session(core.RoleMember), guide.Capabilities{PrepareCampaigns: true, ManageExistingInvitations: true, ManageWorkspaceWithinRole: true, PrivateLinks: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			g, err := guideApp().Guide.WorkflowGuide(context.Background(), c.p)
			require.NoError(t, err)
			require.Equal(t, c.want, g.Capabilities)
			require.False(t, g.Capabilities.ProspectEmailAvailable)
			require.Equal(t, c.want.PurchaseOrAuthorizeNewSends, g.ConnectorCanSend)
			require.Equal(t, !c.want.PurchaseOrAuthorizeNewSends, g.ApprovalRequired)
			require.Equal(t, c.p.Mode, g.Mode)
		})
	}

	g, err := guideApp().Guide.WorkflowGuide(context.Background(), conn(core.ScopeRead, core.ScopeWrite))
	require.NoError(t, err)
	require.Contains(t, g.Instructions, "gifts:links:read")
	g, err = guideApp().Guide.WorkflowGuide(context.Background(), session(core.RoleOwner))
	require.NoError(t, err)
	require.Contains(t, g.Status, "Live")

	_, err = guideApp().Guide.WorkflowGuide(context.Background(), core.Principal{})
	apptest.RequireCode(t, err, core.CodeAuthRequired)
}

func TestApprovalReasons(t *testing.T) {
	t.Parallel()
	blockers := map[string]bool{}
	for _, r := range campaign.ApprovalReasons() {
		require.True(t, r.Valid(), r)
		require.NotEmpty(t, r.Text(), r)
		if b := r.Blocker(); b != "" {
			blockers[b] = true
		}
	}
	// Every blocker text of the spec's QueueItem has a reason.
	for _, b := range []string{"Needs a photo", "Confirm 21 or older", "Add gift details", "Artwork missing",
		"Finish personalization", "Finish the note", "Gift unavailable", "Playbook budget reached",
		"Playbook send limit reached", "Gifted before: approve the repeat", "Monthly budget reached", "Add funds",
		"Needs a shipping address", "Needs review"} {
		require.True(t, blockers[b], b)
	}
	require.Len(t, blockers, 14)
	require.False(t, campaign.ApprovalReason("nope").Valid())
}
