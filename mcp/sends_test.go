package mcp_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/internal/apptest"
)

// TestSendsOverMCP reads gifts with the go-sdk client: get_send, list_sends
// paged until nextCursor is null, filters, and refusals by field.
func TestSendsOverMCP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := setup(t)
	app := b.env.App
	_, owner := b.env.SignIn(t, b.env.OwnerEmail)
	c, err := app.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{
		Name: "Closed-won", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!",
	})
	require.NoError(t, err)
	b.env.TopUp(t, owner, 27_000)
	var ids []string
	for _, name := range []string{"Ana", "Ben", "Cy"} {
		res, err := app.Approvals.AddToPlaybook(ctx, owner, c.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{
			Name: name, SourceSystem: "crm", ExternalID: "ext-" + name}})
		require.NoError(t, err)
		g, err := app.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: res.RecipientID})
		require.NoError(t, err)
		ids = append(ids, g.ID)
	}
	_, err = app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: ids[1], To: gift.SendDeclined, Reason: "not interested"})
	require.NoError(t, err)

	for _, token := range []string{b.env.OwnerKey, connRead} {
		a := agent{t: t, cs: b.connect(t, "/mcp?profile=gifting", token, "")}
		g := a.ok("get_send", map[string]any{"id": ids[1]})
		require.Equal(t, "declined", g["status"])
		require.Equal(t, "balance", g["fundedBy"])
		require.Equal(t, map[string]any{"externalId": "ext-Ben"}, g["attribution"])
		require.Equal(t, "Ben", g["recipient"].(map[string]any)["name"])

		var got []string
		args := map[string]any{"limit": 2}
		for {
			page := a.ok("list_sends", args)
			for _, it := range page["items"].([]any) {
				got = append(got, it.(map[string]any)["id"].(string))
			}
			if page["nextCursor"] == nil {
				break
			}
			args["cursor"] = page["nextCursor"]
		}
		require.ElementsMatch(t, ids, got)
		require.Len(t, got, 3)

		page := a.ok("list_sends", map[string]any{"status": "awaiting_address", "campaignId": c.ID})
		require.Len(t, page["items"], 2)
		page = a.ok("list_sends", map[string]any{"externalId": "ext-Cy"})
		require.Len(t, page["items"], 1)
		require.Equal(t, ids[2], page["items"].([]any)[0].(map[string]any)["id"])

		for field, bad := range map[string]map[string]any{"limit": {"limit": 101}, "cursor": {"cursor": "garbage"}, "status": {"status": "approved"}} {
			env := a.fails("list_sends", bad, core.CodeValidation)
			require.Contains(t, env["error"], field)
		}
	}
	// A declined balance gift came back to the balance once.
	b.env.RequireLedgerConsistent(t, owner)
	bal, err := app.Approvals.Balance(ctx, owner)
	require.NoError(t, err)
	require.Equal(t, int64(9_000), bal.Cents)

	// Another workspace's gift is NOT_FOUND.
	other := apptest.NewWorkspace(t, app, apptest.WorkspaceOptions{})
	a := agent{t: t, cs: b.connect(t, "/mcp", other.OwnerKey, "")}
	a.fails("get_send", map[string]any{"id": ids[0]}, core.CodeNotFound)
}
