package tools_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/tools"
)

// TestGiftLinkRecordsTool drives get_gift_link_records through the registry
// as MCP does: arrays as arrays, a connection with gifts:links:read, and
// refusals naming their field.
func TestGiftLinkRecordsTool(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newCampaigns(t)
	app := c.env.App
	_, owner := c.env.SignIn(t, c.env.OwnerEmail)
	cmp, err := app.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{
		Name: "Thanks", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!",
	})
	require.NoError(t, err)
	c.env.TopUp(t, owner, 18_000)
	var recipients, gifts []string
	for _, n := range []string{"Ana", "Ben", "Cy"} {
		res, err := app.Approvals.AddToPlaybook(ctx, owner, cmp.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{Name: n + " Smith", Email: strings.ToLower(n) + "@example.com"}})
		require.NoError(t, err)
		recipients = append(recipients, res.RecipientID)
		if n != "Cy" {
			g, err := app.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: cmp.ID, RecipientID: res.RecipientID})
			require.NoError(t, err)
			gifts = append(gifts, g.ID)
		}
	}

	links := c.conn
	links.Scopes = []core.Scope{core.ScopeLinks}
	out := c.ok(links, "get_gift_link_records", obj{"id": cmp.ID, "recipientIds": []string{recipients[2], recipients[0]}})
	require.Equal(t, obj{"total": 2.0, "ready": 1.0, "unavailable": 1.0}, out["counts"])
	recs := out["records"].([]any)
	require.Equal(t, gifts[0], recs[0].(obj)["gift_id"])
	require.Equal(t, "no_gift", recs[1].(obj)["availability_reason"])
	out = c.ok(c.key, "get_gift_link_records", obj{"id": cmp.ID, "giftIds": gifts, "availability": "ready", "limit": 1})
	require.Len(t, out["records"], 1)
	require.NotNil(t, out["nextCursor"])

	for field, args := range map[string]obj{
		"recipientIds":    {"recipientIds": []string{}},
		"recipientIds[1]": {"recipientIds": []string{recipients[0], "cmp_1"}},
		"giftIds[0]":      {"giftIds": []string{"send_" + strings.Repeat("a", 100)}},
		"giftIds":         {"giftIds": make([]string, 501)},
		"availability":    {"availability": "soon"},
		"limit":           {"limit": 0},
		"search":          {"search": "a\u0000b"},
		"cursor":          {"cursor": "nope"},
		"colour":          {"colour": "red"},
	} {
		args["id"] = cmp.ID
		c.fails(links, "get_gift_link_records", args, core.CodeValidation, field)
	}
	read := c.conn
	read.Scopes = []core.Scope{core.ScopeRead, core.ScopeWrite}
	c.fails(read, "get_gift_link_records", obj{"id": cmp.ID}, core.CodeInsufficientScope, "")
}

// The tool names every reason a record can be unavailable for, and so does
// the record's schema.
func TestGiftLinkRecordsDescribeEveryReason(t *testing.T) {
	t.Parallel()
	tool := tools.ByName(tools.All(nil))["get_gift_link_records"]
	reason := tool.DataSchema.Properties["records"].Items.Properties["availability_reason"].Description
	for _, r := range giftlink.Reasons {
		require.Contains(t, tool.Description, string(r))
		require.Contains(t, reason, string(r))
	}
	require.Contains(t, tool.Description, "test-mode links must not reach real prospects")
}
