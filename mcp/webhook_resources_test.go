package mcp_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/webhook"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/resources"
)

// TestWebhookDeliveriesResource: giftwell://webhooks/{id}/deliveries is a
// resource template (the tool count stays), read as GET
// /webhooks/{id}/deliveries answers: the same page, paged by limit and
// before, for the workspace's owners and admins; a member's key is refused
// as on REST, another workspace's endpoint is not found.
func TestWebhookDeliveriesResource(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := setup(t)
	app := b.env.App
	_, owner := b.env.SignIn(t, b.env.OwnerEmail)
	key, err := app.Connect.Authenticate(ctx, b.env.OwnerKey)
	require.NoError(t, err)
	rcv := b.env.Receiver(t)
	ep, err := app.Webhooks.Create(ctx, owner, webhook.EndpointInput{URL: rcv.URL + "/hook", Events: []string{"all"}})
	require.NoError(t, err)
	pb, err := app.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{Name: "Live", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive,
		ProductID: "gourmet-snack-crate", SenderName: "S", SenderCompany: "A", Message: "Thanks, {{firstName}}!"})
	require.NoError(t, err)
	for _, n := range []string{"Ada One", "Bo Two", "Cy Three"} {
		res, err := app.Approvals.AddToPlaybook(ctx, key, pb.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{Name: n, Company: "Co"}})
		require.NoError(t, err)
		require.Equal(t, campaign.ApprovalWaiting, res.Approval.State)
	}

	cs := b.connect(t, "/mcp", b.env.OwnerKey, "")
	list, err := cs.ListResourceTemplates(ctx, nil)
	require.NoError(t, err)
	require.Len(t, list.ResourceTemplates, 1)
	require.Equal(t, resources.WebhookDeliveriesTemplate, list.ResourceTemplates[0].URITemplate)
	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	toolCount := len(tools.Tools)

	read := func(cs *sdk.ClientSession, uri string) (webhook.DeliveryPage, error) {
		t.Helper()
		res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		if err != nil {
			return webhook.DeliveryPage{}, err
		}
		require.Len(t, res.Contents, 1)
		require.Equal(t, uri, res.Contents[0].URI)
		require.Equal(t, "application/json", res.Contents[0].MIMEType)
		var page webhook.DeliveryPage
		require.NoError(t, json.Unmarshal([]byte(res.Contents[0].Text), &page))
		return page, nil
	}
	base := "giftwell://webhooks/" + ep.ID + "/deliveries"
	// The same page as the REST route's (Deliveries), paged alike.
	want, err := app.Webhooks.Deliveries(ctx, key, ep.ID, webhook.DeliveryQuery{Source: webhook.SourcePlaybook, Limit: 2})
	require.NoError(t, err)
	require.Len(t, want.Items, 2)
	require.NotNil(t, want.NextBefore)
	got, err := read(cs, base+"?limit=2&source=playbook")
	require.NoError(t, err)
	require.Equal(t, want, got)
	got, err = read(cs, base+"?source=playbook&limit=2&before="+*want.NextBefore)
	require.NoError(t, err)
	require.Len(t, got.Items, 1)
	require.Nil(t, got.NextBefore)
	got, err = read(cs, base)
	require.NoError(t, err)
	require.Empty(t, got.Items, "source gift by default: no gift yet")

	// Refusals, with the route's codes.
	_, err = read(cs, base+"?limit=0")
	requireRPC(t, err, jsonrpc.CodeInvalidParams, "limit")
	_, err = read(cs, base+"?page=2")
	requireRPC(t, err, jsonrpc.CodeInvalidParams, "page")
	other := apptest.NewWorkspace(t, app, apptest.WorkspaceOptions{Name: "Other"})
	_, err = read(b.connect(t, "/mcp", other.OwnerKey, ""), base)
	requireRPC(t, err, -32002, base)
	_, err = read(cs, "giftwell://webhooks/whk_nope/deliveries")
	requireRPC(t, err, -32002, "whk_nope")
	member := b.env.AddPerson(t, core.RoleMember)
	_, err = read(b.connect(t, "/mcp", member.Key, ""), base)
	requireRPC(t, err, -32000, string(core.CodeHumanApprovalRequired))
	_, err = read(b.connect(t, "/mcp", connAll, ""), base)
	require.Error(t, err, "connections never read webhooks, as on REST")

	tools, err = cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, tools.Tools, toolCount, "a resource template is not a tool")
}

// requireRPC requires a JSON-RPC error of code whose message or data
// mentions text.
func requireRPC(t *testing.T, err error, code int64, text string) {
	t.Helper()
	var werr *jsonrpc.Error
	require.ErrorAs(t, err, &werr)
	require.Equal(t, code, werr.Code, "%s %s", werr.Message, werr.Data)
	require.Contains(t, werr.Message+string(werr.Data), text)
}
