package mcp_test

import (
	"context"
	"slices"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
)

// TestOutcomesOverMCP: an agent records an outcome with its key, retries
// it, and reads it back with get_tracking and campaign_results, which a
// read connection also reaches on the assistant endpoint; record_outcome
// is in the full key list only.
func TestOutcomesOverMCP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := setup(t)
	app := b.env.App
	_, owner := b.env.SignIn(t, b.env.OwnerEmail)
	key, err := app.Connect.Authenticate(ctx, b.env.OwnerKey)
	require.NoError(t, err)
	b.env.TopUp(t, owner, 100_000)
	c, err := app.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{Name: "Closed-won", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive,
		ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!"})
	require.NoError(t, err)
	added, err := app.Approvals.AddToPlaybook(ctx, key, c.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{Name: "Ana", ExternalID: "crm-7", SourceSystem: "crm"}})
	require.NoError(t, err)
	sent, err := app.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: added.RecipientID})
	require.NoError(t, err)

	a := agent{t: t, cs: b.connect(t, "/mcp", b.env.OwnerKey, "")}
	args := map[string]any{"id": sent.ID, "outcome": "meeting_held", "externalEventId": "cal-1", "source": "calendar"}
	first := a.ok("record_outcome", args)
	require.Equal(t, "meeting_held", first["outcome"])
	require.Equal(t, first, a.ok("record_outcome", args))
	conflict := a.fails("record_outcome", map[string]any{"id": sent.ID, "outcome": "replied", "externalEventId": "cal-1", "source": "calendar"}, core.CodeIdempotencyConflict)
	require.Contains(t, conflict["error"], "externalEventId")
	bad := a.fails("record_outcome", map[string]any{"id": sent.ID, "outcome": "replied", "occurredAt": "2027-01-01T00:00:00Z"}, core.CodeValidation)
	require.Contains(t, bad["error"], "occurredAt")
	a.fails("record_outcome", map[string]any{"id": "send_nope", "outcome": "replied"}, core.CodeNotFound)

	page := a.ok("get_tracking", map[string]any{"externalId": "crm-7"})
	require.Nil(t, page["nextCursor"])
	item := page["items"].([]any)[0].(map[string]any)
	require.Equal(t, sent.ID, item["sendId"])
	require.Equal(t, "meeting_held", item["outcome"])
	results := a.ok("campaign_results", map[string]any{"id": c.ID})
	require.EqualValues(t, 1, results["meetingsHeld"])
	require.Equal(t, results["committedCents"], results["costPerMeetingCents"])

	// The assistant endpoint with gifts:read reads tracking and results.
	gpt := agent{t: t, cs: b.connect(t, "/chatgpt/mcp", connRead, "")}
	require.Equal(t, page, gpt.ok("get_tracking", map[string]any{"externalId": "crm-7"}))
	require.Equal(t, results, gpt.ok("campaign_results", map[string]any{"id": c.ID}))

	// record_outcome is listed for keys only; the reads where TOOLS.md puts them.
	for path, want := range map[string][]bool{"/mcp": {true, true, true}, "/mcp?profile=gifting": {false, true, true}, "/chatgpt/mcp": {false, true, true}} {
		token := b.env.OwnerKey
		if path != "/mcp" {
			token = connAll
		}
		list, err := b.connect(t, path, token, "").ListTools(ctx, nil)
		require.NoError(t, err)
		for i, name := range []string{"record_outcome", "get_tracking", "campaign_results"} {
			require.Equal(t, want[i], slices.ContainsFunc(list.Tools, func(tl *sdk.Tool) bool { return tl.Name == name }), "%s %s", path, name)
		}
		require.False(t, slices.ContainsFunc(list.Tools, func(tl *sdk.Tool) bool { return tl.Name == "get_send_tracking" }), "REST only")
	}

	// Another workspace finds none of it.
	other := apptest.NewWorkspace(t, app, apptest.WorkspaceOptions{})
	theirs := agent{t: t, cs: b.connect(t, "/mcp", other.OwnerKey, "")}
	theirs.fails("record_outcome", map[string]any{"id": sent.ID, "outcome": "replied"}, core.CodeNotFound)
	theirs.fails("campaign_results", map[string]any{"id": c.ID}, core.CodeNotFound)
	require.Equal(t, []any{}, theirs.ok("get_tracking", map[string]any{})["items"])
}
