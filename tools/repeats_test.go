package tools_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/gift"
)

func TestCampaignRepeats(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	ctx := context.Background()

	// Earlier gifts from another campaign.
	earlier := c.batch("gourmet-snack-crate", obj{"recipients": []obj{
		{"name": "By Email", "email": "repeat@example.com"},
		{"name": "By Source", "sourceSystem": "hubspot", "externalId": "77"},
		{"name": "By Profile", "profileUrl": "https://www.linkedin.com/in/by-profile"},
		{"name": "Cancelled", "email": "cancelled@example.com"},
		{"name": "Live Only", "email": "live@example.com"},
	}})
	er := people(earlier)
	sends := map[string]string{}
	for i, sp := range []approval.SendParams{
		{}, {}, {}, {Status: gift.SendCancelled}, {Mode: core.ModeLive},
	} {
		sp.CampaignID, sp.RecipientID, sp.TotalCents = earlier["id"].(string), er[i]["recipientId"].(string), 9000
		id, err := c.env.App.Approvals.InsertSend(ctx, c.key, sp)
		require.NoError(t, err)
		sends[er[i]["name"].(string)] = id
	}

	b := c.batch("gourmet-snack-crate", obj{"message": "Hi", "recipients": []obj{
		{"name": "Email Again", "email": "REPEAT@example.com"},
		{"name": "Source Again", "sourceSystem": "hubspot", "externalId": "77"},
		{"name": "Profile Again", "profileUrl": "uk.linkedin.com/in/By-Profile"},
		{"name": "Cancelled Again", "email": "cancelled@example.com"},
		{"name": "Live Again", "email": "live@example.com"},
		{"name": "Someone New", "email": "new@example.com"},
	}})
	id := b["id"].(string)
	roster := people(b)

	got, err := c.call(c.key, "get_campaign_repeats", obj{"id": id})
	require.NoError(t, err)
	require.Equal(t, []any{
		obj{"recipientId": roster[0]["recipientId"], "email": "repeat@example.com", "name": "Email Again", "priorSendId": sends["By Email"], "approved": false},
		obj{"recipientId": roster[1]["recipientId"], "name": "Source Again", "priorSendId": sends["By Source"], "approved": false},
		obj{"recipientId": roster[2]["recipientId"], "name": "Profile Again", "priorSendId": sends["By Profile"], "approved": false},
	}, got, "matched by email, identity or profile; cancelled gifts and other modes do not count")
	pv := c.ok(c.key, "preview_campaign", obj{"id": id})
	require.Len(t, blockers(t, pv)["repeat_review"], 3)
	// A live workspace sees its live gifts.
	live := c.key
	live.Mode = core.ModeLive
	got, err = c.call(live, "get_campaign_repeats", obj{"id": id})
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, roster[4]["recipientId"], got.([]any)[0].(obj)["recipientId"])

	// Only a signed-in owner or admin approves repeats.
	approve := obj{"id": id, "recipientIds": []any{roster[0]["recipientId"], roster[1]["recipientId"]}}
	e := c.fails(c.key, "approve_campaign_repeats", approve, core.CodeHumanApprovalRequired, "")
	require.Equal(t, c.env.SiteURL+"/campaigns/"+id+"?review=1", e.URL)
	e = c.fails(c.conn, "approve_campaign_repeats", approve, core.CodeHumanApprovalRequired, "")
	require.Equal(t, c.env.SiteURL+"/campaigns/"+id+"?review=1", e.URL)
	_, memberSession := c.member()
	c.fails(memberSession, "approve_campaign_repeats", approve, core.CodeTeamManagerRequired, "")
	c.fails(c.session, "approve_campaign_repeats", obj{"id": id, "recipientIds": []any{roster[5]["recipientId"]}}, core.CodeValidation, "recipientIds[0]")
	c.fails(c.session, "approve_campaign_repeats", obj{"id": id, "recipientIds": []any{"recipient_000000000000000000000000"}}, core.CodeNotFound, "recipientIds[0]")
	c.fails(c.session, "approve_campaign_repeats", obj{"id": id, "recipientIds": []any{}}, core.CodeValidation, "recipientIds")
	c.fails(c.session, "approve_campaign_repeats", obj{"id": id, "recipientIds": []any{roster[0]["recipientId"], roster[0]["recipientId"]}}, core.CodeDuplicateRecipient, "recipientIds[1]")

	got, err = c.call(c.session, "approve_campaign_repeats", approve)
	require.NoError(t, err)
	approved := map[any]bool{}
	for _, r := range got.([]any) {
		approved[r.(obj)["recipientId"]] = r.(obj)["approved"].(bool)
	}
	require.Equal(t, map[any]bool{roster[0]["recipientId"]: true, roster[1]["recipientId"]: true, roster[2]["recipientId"]: false}, approved)
	pv = c.ok(c.key, "preview_campaign", obj{"id": id})
	require.Equal(t, []string{roster[2]["recipientId"].(string)}, blockers(t, pv)["repeat_review"])
	require.Equal(t, true, people(c.get(id))[0]["repeatApproved"])
	// Approving is not an edit: the version stays.
	c.unchanged(id, 1, 6)
	// Approving again is harmless.
	_, err = c.call(c.session, "approve_campaign_repeats", approve)
	require.NoError(t, err)
}

func TestCampaignDescriptors(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	for name, want := range map[string]struct {
		scope  string
		route  string
		status int
		gpt    bool
	}{
		"list_campaigns":           {"read", "GET /campaigns", 200, true},
		"get_campaign":             {"read", "GET /campaigns/{id}", 200, true},
		"preview_campaign":         {"read", "GET /campaigns/{id}/preview", 200, true},
		"get_campaign_repeats":     {"read", "GET /campaigns/{id}/repeats", 200, false},
		"create_campaign":          {"write", "POST /campaigns", 201, true},
		"update_campaign":          {"write", "PATCH /campaigns/{id}", 200, true},
		"add_recipients":           {"write", "POST /campaigns/{id}/recipients", 200, true},
		"manage_recipients":        {"write", "POST /campaigns/{id}/recipients/bulk", 200, false},
		"approve_campaign_repeats": {"signed-in", "POST /campaigns/{id}/repeat-approvals", 200, false},
	} {
		tool := c.byName[name]
		require.Equal(t, want.scope, string(tool.Scope), name)
		require.Equal(t, want.route, tool.Route.Method+" "+tool.Route.Path, name)
		require.Equal(t, want.status, tool.Route.Status, name)
		require.Equal(t, want.gpt, tool.ChatGPT, name)
		require.Equal(t, "object", tool.InputSchema.Type, name)
		require.NotNil(t, tool.InputSchema.AdditionalProperties, "%s refuses unknown fields", name)
	}
}
