package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
)

// pollEvents calls list_tracking_events from cursor until want events
// arrived and hasMore is false, and returns them and the cursor to store.
// The feed's horizon is cluster-wide, so another test's open transaction
// only delays events: it waits up to a deadline.
func pollEvents(t *testing.T, a agent, args map[string]any, want int) ([]map[string]any, string) {
	t.Helper()
	var got []map[string]any
	deadline := time.Now().Add(30 * time.Second)
	for {
		page := a.ok("list_tracking_events", args)
		for _, it := range page["items"].([]any) {
			got = append(got, it.(map[string]any))
		}
		cursor, ok := page["nextCursor"].(string)
		require.True(t, ok && cursor != "", "every poll returns a cursor to store: %v", page)
		args["cursor"] = cursor
		if len(got) >= want && page["hasMore"] == false {
			require.Len(t, got, want)
			return got, cursor
		}
		require.True(t, time.Now().Before(deadline), "only %d of %d events arrived", len(got), want)
		if page["hasMore"] == false {
			time.Sleep(20 * time.Millisecond) // wait for transactions elsewhere in the cluster to end
		}
	}
}

// TestListTrackingEventsOverMCP polls the event feed with the go-sdk
// client: an empty poll's cursor, the gift an agent's add led to, the type
// filter, refusals by name, connections with and without gifts:read, and
// another workspace that sees none of it.
func TestListTrackingEventsOverMCP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := setup(t)
	app := b.env.App
	_, owner := b.env.SignIn(t, b.env.OwnerEmail)
	b.env.TopUp(t, owner, 100_000)
	c, err := app.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{Name: "Closed-won", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive,
		ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!"})
	require.NoError(t, err)

	a := agent{t: t, cs: b.connect(t, "/mcp", b.env.OwnerKey, "")}
	empty := a.ok("list_tracking_events", map[string]any{})
	require.Equal(t, []any{}, empty["items"])
	require.Equal(t, false, empty["hasMore"])
	stored := empty["nextCursor"].(string)
	require.NotEmpty(t, stored)

	// The agent adds a person (who waits: playbook.person_waiting stays out
	// of the feed); a signed-in owner approves.
	added := a.ok("add_to_playbook", map[string]any{"id": c.ID, "recipient": map[string]any{
		"name": "Ana Diaz", "email": "ana@example.com", "sourceSystem": "crm", "externalId": "crm-7", "message": "A private note for {{firstName}}",
	}})
	require.Equal(t, "waiting", added["approval"].(map[string]any)["state"])
	sent, err := app.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: added["recipientId"].(string)})
	require.NoError(t, err)

	items, next := pollEvents(t, a, map[string]any{"cursor": stored}, 1)
	it := items[0]
	keys := make([]string, 0, len(it))
	for k := range it {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	require.Equal(t, []string{"campaignId", "createdAt", "cursor", "data", "id", "mode", "sendId", "type"}, keys)
	require.Equal(t, "send.created", it["type"])
	require.Equal(t, "test", it["mode"])
	require.Equal(t, sent.ID, it["sendId"])
	require.Equal(t, c.ID, it["campaignId"])
	require.Equal(t, apptest.Epoch.Format(time.RFC3339), it["createdAt"])
	data := it["data"].(map[string]any)
	require.Equal(t, "crm-7", data["attribution"].(map[string]any)["externalId"])
	require.EqualValues(t, 9_000, data["totalCents"])
	text, err := json.Marshal(it)
	require.NoError(t, err)
	for _, secret := range []string{"ana@example.com", "private note", "Ana"} {
		require.NotContains(t, string(text), secret)
	}

	// The stored cursor of an empty poll; filters; a read-only connection.
	again := a.ok("list_tracking_events", map[string]any{"cursor": next})
	require.Equal(t, []any{}, again["items"])
	require.Equal(t, []any{}, a.ok("list_tracking_events", map[string]any{"type": "send.auto_approved"})["items"])
	require.Len(t, a.ok("list_tracking_events", map[string]any{"type": "send.created", "sendId": sent.ID, "status": "awaiting_address", "externalId": "crm-7", "campaignId": c.ID})["items"], 1)
	reader := agent{t: t, cs: b.connect(t, "/mcp?profile=gifting", connRead, "")}
	require.Equal(t, []any{it}, reader.ok("list_tracking_events", map[string]any{"limit": 100})["items"])

	// Refusals name their field.
	for field, bad := range map[string]map[string]any{
		"limit":  {"limit": 0},
		"type":   {"type": "playbook.person_waiting"},
		"cursor": {"cursor": "garbage"},
	} {
		env := a.fails("list_tracking_events", bad, core.CodeValidation)
		require.Contains(t, env["error"], field)
	}
	a.fails("list_tracking_events", map[string]any{"limit": 101}, core.CodeValidation)
	a.fails("list_tracking_events", map[string]any{"sendId": "send_nope"}, core.CodeNotFound)

	// Another workspace sees none of it, and its cursor is not ours.
	other := apptest.NewWorkspace(t, app, apptest.WorkspaceOptions{})
	theirs := agent{t: t, cs: b.connect(t, "/mcp", other.OwnerKey, "")}
	page := theirs.ok("list_tracking_events", map[string]any{})
	require.Equal(t, []any{}, page["items"])
	env := a.fails("list_tracking_events", map[string]any{"cursor": page["nextCursor"]}, core.CodeValidation)
	require.True(t, strings.HasPrefix(env["error"].(string), "cursor"), env["error"])
	theirs.fails("list_tracking_events", map[string]any{"cursor": next}, core.CodeValidation)

	// Listed for keys and the gifting profile, not on the assistant endpoint;
	// a connection without gifts:read is refused.
	for path, listed := range map[string]bool{"/mcp": true, "/mcp?profile=gifting": true, "/chatgpt/mcp": false} {
		token := b.env.OwnerKey
		if path != "/mcp" {
			token = connRead
		}
		list, err := b.connect(t, path, token, "").ListTools(ctx, nil)
		require.NoError(t, err)
		require.Equal(t, listed, slices.ContainsFunc(list.Tools, func(tl *sdk.Tool) bool { return tl.Name == "list_tracking_events" }), path)
	}
	resp := b.do(t, request{token: connNoScopes, header: mcpHeaders("tools/call", "list_tracking_events"),
		body: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_tracking_events","arguments":{},` + newMeta + `}}`})
	require.Equal(t, http.StatusForbidden, resp.status, "%s", resp.body)
	require.Contains(t, resp.header.Get("WWW-Authenticate"), `scope="gifts:read"`)
	requireEnvelope(t, resp.json(t), core.CodeInsufficientScope)
}
