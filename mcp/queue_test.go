package mcp_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/sql/db"
)

// TestListQueueOverMCP pages through the approval queue with the go-sdk
// client: nextCursor until null, every person once in queue order, and the
// limit and cursor refused by name.
func TestListQueueOverMCP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := setup(t)
	app := b.env.App
	key, err := app.Connect.Authenticate(ctx, b.env.OwnerKey)
	require.NoError(t, err)
	_, owner := b.env.SignIn(t, b.env.OwnerEmail)
	c, err := app.Campaigns.CreateCampaign(ctx, key, campaign.CampaignInput{Name: "Closed-won", Mode: campaign.ModeAlwaysOn, ProductID: "gourmet-snack-crate",
		SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!"})
	require.NoError(t, err)
	active := campaign.StatusActive
	_, err = app.Campaigns.UpdateCampaign(ctx, owner, c.ID, campaign.CampaignPatch{Status: &active})
	require.NoError(t, err)
	var ids []string
	for i := range 7 {
		res, err := app.Campaigns.AddRecipients(ctx, key, c.ID, campaign.RecipientsAdd{Recipients: []campaign.RecipientInput{{Name: fmt.Sprintf("Person %d", i)}}})
		require.NoError(t, err)
		_, err = db.New(app.DB).RecipientSetApproval(ctx, db.RecipientSetApprovalParams{
			ApprovalState: string(campaign.ApprovalWaiting), ApprovalReason: string(campaign.ReasonAutoApproveOff),
			UpdatedAt: b.env.Clock.Now(), CampaignID: c.ID, ID: res.Added[0],
		})
		require.NoError(t, err)
		ids = append(ids, res.Added[0])
	}

	a := agent{t: t, cs: b.connect(t, "/mcp", connRead, "")}
	var got []string
	args := map[string]any{"limit": 3}
	for {
		page := a.ok("list_queue", args)
		for _, it := range page["items"].([]any) {
			item := it.(map[string]any)
			got = append(got, item["recipientId"].(string))
			require.Equal(t, c.ID, item["campaignId"])
			require.EqualValues(t, 9_000, item["priceCents"])
		}
		if page["nextCursor"] == nil {
			break
		}
		args["cursor"] = page["nextCursor"]
	}
	require.Equal(t, ids, got)

	for _, bad := range []map[string]any{{"limit": 0}, {"limit": 101}, {"cursor": "garbage"}} {
		env := a.fails("list_queue", bad, core.CodeValidation)
		require.NotEmpty(t, env["error"])
	}
	a.fails("list_queue", map[string]any{"campaignId": "cmp_unknown"}, core.CodeNotFound)
}
