package rest_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/internal/apptest"
)

// giftsFor approves one balance-paid gift for each person of a new active
// playbook and returns the campaign's ID and the gifts' IDs, in the order
// of people. A person with an address gets a sender-supplied one.
func giftsFor(t *testing.T, env *apptest.Env, people ...campaign.RecipientInput) (string, []string) {
	t.Helper()
	ctx := context.Background()
	_, owner := env.SignIn(t, env.OwnerEmail)
	c, err := env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{
		Name: "Thanks", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam Seller", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!",
		Attribution: &gift.Attribution{Source: "crm-flow", ExternalID: "campaign-ext"},
	})
	require.NoError(t, err)
	env.TopUp(t, owner, int64(len(people))*9_000)
	var ids []string
	for _, in := range people {
		res, err := env.App.Approvals.AddToPlaybook(ctx, owner, c.ID, approval.PlaybookPersonAdd{Recipient: in})
		require.NoError(t, err)
		g, err := env.App.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: res.RecipientID})
		require.NoError(t, err)
		ids = append(ids, g.ID)
	}
	return c.ID, ids
}

func TestSendsOverREST(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	known := campaign.RecipientInput{Name: "Ana Alvarez", SourceSystem: "crm", ExternalID: "ext-ana", Email: "ana@example.com",
		AddressMode: gift.AddressKnown, Address: "1 Main St", City: "Austin", State: "TX", Zip: "78701"}
	cid, ids := giftsFor(t, h.env, known,
		campaign.RecipientInput{Name: "Ben Brown", Email: "ben@example.com"},
		campaign.RecipientInput{Name: "Cy Chan", Email: "cy@example.com"})
	_, err := h.env.App.Gifts.MoveGift(ctx, gift.GiftMove{SendID: ids[2], To: gift.SendCancelled})
	require.NoError(t, err)

	// One gift.
	res := h.get("/sends/"+ids[0], withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	g := res.data().(jsonObj)
	require.Equal(t, ids[0], g["id"])
	require.Equal(t, cid, g["campaignId"])
	require.Equal(t, "ready", g["status"])
	require.Equal(t, "none", g["orderState"])
	require.Equal(t, "test", g["mode"])
	require.Equal(t, "balance", g["fundedBy"])
	require.Equal(t, 9_000.0, g["totalCents"])
	require.Equal(t, 0.0, g["giftLinkGeneration"])
	require.NotContains(t, g, "portrait")
	require.Equal(t, jsonObj{"source": "crm-flow", "externalId": "ext-ana"}, g["attribution"], "the person's externalId over the campaign's")
	rcp := g["recipient"].(jsonObj)
	require.Equal(t, "Ana Alvarez", rcp["name"])
	require.Equal(t, "1 Main St", rcp["address"], "a sender-supplied address stays visible")
	require.NotEmpty(t, g["createdAt"])
	require.NotEmpty(t, g["updatedAt"])

	// Another workspace's gift is not found; so is none.
	other := apptest.NewWorkspace(t, h.env.App, apptest.WorkspaceOptions{})
	for _, key := range []string{other.OwnerKey} {
		res = h.get("/sends/"+ids[0], withKey(key))
		require.Equal(t, http.StatusNotFound, res.Status, "%s", res.Body)
		require.Equal(t, "NOT_FOUND", res.code())
	}
	res = h.get("/sends", withKey(other.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, []any{}, res.data().(jsonObj)["items"])

	// The list pages newest first until nextCursor is null.
	seen := map[string]bool{}
	cursor := ""
	for pages := 0; ; pages++ {
		require.Less(t, pages, 3)
		q := url.Values{"limit": {"2"}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		res = h.get("/sends?"+q.Encode(), withKey(h.env.OwnerKey))
		require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
		page := res.data().(jsonObj)
		for _, it := range page["items"].([]any) {
			id := it.(jsonObj)["id"].(string)
			require.False(t, seen[id], "%s twice", id)
			seen[id] = true
		}
		if page["nextCursor"] == nil {
			break
		}
		require.Len(t, page["items"], 2)
		cursor = page["nextCursor"].(string)
	}
	require.Equal(t, map[string]bool{ids[0]: true, ids[1]: true, ids[2]: true}, seen)

	// Filters.
	listed := func(query string) []string {
		t.Helper()
		res := h.get("/sends?"+query, withKey(h.env.OwnerKey))
		require.Equal(t, http.StatusOK, res.Status, "%s: %s", query, res.Body)
		var out []string
		for _, it := range res.data().(jsonObj)["items"].([]any) {
			out = append(out, it.(jsonObj)["id"].(string))
		}
		return out
	}
	require.Equal(t, []string{ids[2]}, listed("status=cancelled"))
	require.ElementsMatch(t, []string{ids[1]}, listed("status=awaiting_address"))
	require.Equal(t, []string{ids[0]}, listed("externalId=ext-ana"))
	require.ElementsMatch(t, ids[1:], listed("externalId=campaign-ext"))
	require.Len(t, listed("campaignId="+cid+"&mode=test"), 3)
	require.Empty(t, listed("mode=live"))
	require.Empty(t, listed("campaignId=cmp_none"))

	// Bad filters name their field.
	for query, field := range map[string]string{
		"status=approved":        "status",
		"mode=prod":              "mode",
		"limit=0":                "limit",
		"limit=101":              "limit",
		"cursor=bogus":           "cursor",
		"cursor=" + cursor:       "cursor", // issued without a filter
		"status=ready&limit=abc": "limit",
	} {
		if field == "cursor" && query != "cursor=bogus" {
			query += "&status=ready"
		}
		res = h.get("/sends?"+query, withKey(h.env.OwnerKey))
		require.Equal(t, http.StatusBadRequest, res.Status, "%s: %s", query, res.Body)
		require.Equal(t, "VALIDATION_ERROR", res.code(), query)
		require.Contains(t, res.message(), field, query)
	}

	// A sign-in connection cannot use these routes; no credentials, 401.
	res = h.get("/sends", withKey(connectionToken))
	require.Equal(t, http.StatusUnauthorized, res.Status)
	res = h.get("/sends")
	require.Equal(t, http.StatusUnauthorized, res.Status)
}
