package rest_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
)

// pollEvents GETs /events with query from its cursor until want events
// arrived and hasMore is false, and returns them and the cursor to store.
// The feed's horizon is cluster-wide, so another test's open transaction
// only delays events: it waits up to a deadline.
func pollEvents(t *testing.T, h *harness, key string, query url.Values, want int) ([]any, string) {
	t.Helper()
	var got []any
	deadline := time.Now().Add(30 * time.Second)
	for {
		res := h.get("/events?"+query.Encode(), withKey(key))
		require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
		page := res.data().(map[string]any)
		got = append(got, page["items"].([]any)...)
		cursor := page["nextCursor"].(string)
		require.NotEmpty(t, cursor, "every poll returns a cursor to store")
		query.Set("cursor", cursor)
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

// TestEventsOverREST reads GET /events with query arguments, validated
// against the OpenAPI documents: paging, filters, refusals naming their
// parameter, and workspace isolation.
func TestEventsOverREST(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t)
	app := h.env.App
	_, owner := h.env.SignIn(t, h.env.OwnerEmail)
	key, err := app.Connect.Authenticate(ctx, h.env.OwnerKey)
	require.NoError(t, err)
	h.env.TopUp(t, owner, 100_000)
	c, err := app.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{Name: "Closed-won", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive,
		ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!"})
	require.NoError(t, err)

	empty, stored := pollEvents(t, h, h.env.OwnerKey, url.Values{}, 0)
	require.Empty(t, empty)

	var gifts []string
	for _, who := range []string{"Ana", "Ben", "Cy"} {
		added, err := app.Approvals.AddToPlaybook(ctx, key, c.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{Name: who, ExternalID: "ext-" + who, SourceSystem: "crm"}})
		require.NoError(t, err)
		sent, err := app.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: added.RecipientID})
		require.NoError(t, err)
		gifts = append(gifts, sent.ID)
	}
	items, end := pollEvents(t, h, h.env.OwnerKey, url.Values{"cursor": {stored}}, 3)
	for i, it := range items {
		item := it.(map[string]any)
		require.Equal(t, "send.created", item["type"])
		require.Equal(t, "test", item["mode"])
		require.Equal(t, gifts[i], item["sendId"])
		require.Equal(t, c.ID, item["campaignId"])
	}

	// Pages of two from the start; filters as query arguments.
	res := h.get("/events?limit=2", withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	page := res.data().(map[string]any)
	require.Equal(t, items[:2], page["items"])
	require.Equal(t, true, page["hasMore"])
	res = h.get("/events?limit=2&cursor="+url.QueryEscape(page["nextCursor"].(string)), withKey(h.env.OwnerKey))
	require.Equal(t, items[2:], res.data().(map[string]any)["items"])
	require.Equal(t, false, res.data().(map[string]any)["hasMore"])
	res = h.get("/events?externalId=ext-Ben&status=awaiting_address&type=send.created&campaignId="+c.ID, withKey(h.env.OwnerKey))
	require.Equal(t, items[1:2], res.data().(map[string]any)["items"])
	res = h.get("/events?type=send.tracking_changed&sendId="+gifts[0], withKey(h.env.OwnerKey))
	require.Equal(t, []any{}, res.data().(map[string]any)["items"])
	res = h.get("/events?cursor="+url.QueryEscape(end), withKey(h.env.OwnerKey))
	require.Equal(t, []any{}, res.data().(map[string]any)["items"])

	// Refusals name their parameter.
	for param, query := range map[string]string{
		"limit":  "limit=0",
		"type":   "type=playbook.person_waiting",
		"cursor": "cursor=garbage",
	} {
		res := h.get("/events?"+query, withKey(h.env.OwnerKey))
		require.Equal(t, http.StatusBadRequest, res.Status, "%s", res.Body)
		require.Equal(t, string(core.CodeValidation), res.code())
		require.Contains(t, res.message(), param)
	}
	res = h.get("/events?limit=abc", withKey(h.env.OwnerKey))
	require.Equal(t, string(core.CodeValidation), res.code())
	res = h.get("/events?campaignId=cmp_nope", withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusNotFound, res.Status)
	require.Equal(t, "NOT_FOUND", res.code())
	res = h.get("/events")
	require.Equal(t, http.StatusUnauthorized, res.Status)
	res = h.get("/events", withKey(connectionToken))
	require.Equal(t, http.StatusUnauthorized, res.Status, "connections read the feed over MCP only")

	// Another workspace sees none of it, and its cursor is not ours.
	other := apptest.NewWorkspace(t, app, apptest.WorkspaceOptions{})
	theirs, theirCursor := pollEvents(t, h, other.OwnerKey, url.Values{}, 0)
	require.Empty(t, theirs)
	res = h.get("/events?cursor="+url.QueryEscape(theirCursor), withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusBadRequest, res.Status)
	require.Contains(t, res.message(), "cursor")
}
