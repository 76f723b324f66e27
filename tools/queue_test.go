package tools_test

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/sql/db"
)

// activePlaybook creates a playbook of product, has the signed-in owner turn
// it on, and adds people one call each, each waiting with reason
// auto_approve_off. It returns the playbook's ID and the people's IDs.
func (c *campaigns) activePlaybook(product string, people ...obj) (string, []string) {
	c.t.Helper()
	id := c.playbook(product, obj{"message": "Thanks, {{firstName}}!"})["id"].(string)
	c.ok(c.session, "update_campaign", obj{"id": id, "status": "active"})
	var ids []string
	for _, p := range people {
		got := c.ok(c.key, "add_recipients", obj{"id": id, "recipients": []obj{p}})
		rid := got["added"].([]any)[0].(string)
		_, err := db.New(c.env.App.DB).RecipientSetApproval(context.Background(), db.RecipientSetApprovalParams{
			ApprovalState: string(campaign.ApprovalWaiting), ApprovalReason: string(campaign.ReasonAutoApproveOff),
			UpdatedAt: c.env.Clock.Now(), CampaignID: id, ID: rid,
		})
		require.NoError(c.t, err)
		ids = append(ids, rid)
	}
	return id, ids
}

func TestListQueuePages(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	id, ids := c.activePlaybook("gourmet-snack-crate", person("1"), person("2"), person("3"), person("4"), person("5"))

	var got []string
	args := obj{"campaignId": id, "limit": 2}
	for pages := 1; ; pages++ {
		page := c.ok(c.key, "list_queue", args)
		items := page["items"].([]any)
		require.LessOrEqual(t, len(items), 2)
		for _, it := range items {
			item := it.(obj)
			got = append(got, item["recipientId"].(string))
			require.Equal(t, []any{"Add funds"}, item["blockers"], "the balance is empty")
			require.Equal(t, "waiting", item["state"])
			require.Equal(t, "auto_approve_off", item["reason"])
			require.Equal(t, c.env.SiteURL+"/?queue="+id, item["approvalUrl"])
		}
		if page["nextCursor"] == nil {
			require.Equal(t, 3, pages)
			break
		}
		args["cursor"] = page["nextCursor"]
	}
	require.Equal(t, ids, got, "every person once, in queue order")

	// The default page holds everyone; connections with gifts:read list it too.
	page := c.ok(c.conn, "list_queue", obj{})
	require.Len(t, page["items"], 5)
	require.Nil(t, page["nextCursor"])

	c.fails(c.key, "list_queue", obj{"limit": 0}, core.CodeValidation, "limit")
	c.fails(c.key, "list_queue", obj{"limit": 101}, core.CodeValidation, "limit")
	c.fails(c.key, "list_queue", obj{"cursor": "not-a-cursor"}, core.CodeValidation, "cursor")
	c.fails(c.key, "list_queue", obj{"campaignId": "cmp_000000000000000000000000"}, core.CodeNotFound, "campaignId")
	c.ok(c.key, "list_queue", obj{"limit": 100})
}

// TestListQueueHasOneContract: list_queue's REST form (GET /queue) takes
// the tool's filter without the page and returns the tool's items, every
// page's at once, in the same shape.
func TestListQueueHasOneContract(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	tool := c.byName["list_queue"]
	require.NotNil(t, tool.Route)
	form := tool.Route.Form
	require.NotNil(t, form, "GET /queue is list_queue's own route")

	itemOf := func(s *jsonschema.Schema) string {
		b, err := json.Marshal(s)
		require.NoError(t, err)
		return string(b)
	}
	require.Equal(t, itemOf(tool.DataSchema.Properties["items"].Items), itemOf(form.DataSchema.Items), "one item shape")
	require.Equal(t, []string{"campaignId"}, slices.Sorted(maps.Keys(form.InputSchema.Properties)), "the filter, without the page")

	id, _ := c.activePlaybook("gourmet-snack-crate", person("1"), person("2"), person("3"))
	var paged []any
	args := obj{"campaignId": id, "limit": 2}
	for {
		page := c.ok(c.key, "list_queue", args)
		paged = append(paged, page["items"].([]any)...)
		if page["nextCursor"] == nil {
			break
		}
		args["cursor"] = page["nextCursor"]
	}
	require.Len(t, paged, 3)

	rest := func(args string) ([]any, error) {
		out, err := form.Call(context.Background(), c.key, json.RawMessage(args))
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(out)
		require.NoError(t, err)
		var items []any
		require.NoError(t, json.Unmarshal(b, &items))
		return items, nil
	}
	whole, err := rest(`{"campaignId":"` + id + `"}`)
	require.NoError(t, err)
	require.Equal(t, paged, whole, "the REST form's items are the tool's pages, joined")

	_, err = rest(`{"limit":2}`)
	require.Equal(t, core.CodeValidation, core.ErrorCode(err), "the REST form does not page")
	_, err = form.Call(context.Background(), core.Principal{}, json.RawMessage(`{}`))
	require.Equal(t, core.CodeAuthRequired, core.ErrorCode(err), "the form is authorized as the tool is")
}
