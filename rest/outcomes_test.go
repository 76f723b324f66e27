package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
)

// TestOutcomesOverREST records outcomes with POST /sends/{id}/outcomes and
// reads them back through GET /tracking, GET /sends/{id}/tracking,
// GET /campaigns/{id}/tracking and GET /campaigns/{id}/results, validated
// against the OpenAPI documents: replays, conflicts and refusals naming
// their field, other workspaces, and connections refused.
func TestOutcomesOverREST(t *testing.T) {
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
	var gifts []string
	for _, who := range []string{"Ana", "Ben"} {
		h.env.Clock.Advance(time.Second) // newest first is Ben, then Ana
		added, err := app.Approvals.AddToPlaybook(ctx, key, c.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{Name: who, ExternalID: "ext-" + who, SourceSystem: "crm"}})
		require.NoError(t, err)
		sent, err := app.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: added.RecipientID})
		require.NoError(t, err)
		gifts = append(gifts, sent.ID)
	}
	post := func(sendID, body string, opts ...reqOpt) response {
		t.Helper()
		return h.do(http.MethodPost, "/sends/"+sendID+"/outcomes", strings.NewReader(body), append([]reqOpt{withJSON()}, opts...)...)
	}
	owned := withKey(h.env.OwnerKey)

	res := post(gifts[0], `{"outcome":"meeting_booked","externalEventId":"crm-1","source":"hubspot","occurredAt":"2026-03-02T08:30:00Z"}`, owned)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	first := res.data().(map[string]any)
	require.Equal(t, map[string]any{"sendId": gifts[0], "outcome": "meeting_booked", "source": "hubspot", "externalEventId": "crm-1",
		"occurredAt": "2026-03-02T08:30:00Z", "recordedAt": "2026-03-02T09:00:02Z"}, first)
	// A retry answers the same; changed content conflicts.
	res = post(gifts[0], `{"outcome":"meeting_booked","externalEventId":"crm-1","source":"hubspot"}`, owned)
	require.Equal(t, first, res.data())
	res = post(gifts[0], `{"outcome":"meeting_held","externalEventId":"crm-1","source":"hubspot"}`, owned)
	require.Equal(t, http.StatusConflict, res.Status, "%s", res.Body)
	require.Equal(t, string(core.CodeIdempotencyConflict), res.code())
	require.Contains(t, res.message(), "externalEventId")
	// Refusals name their field.
	for field, body := range map[string]string{
		"outcome":    `{"outcome":"won"}`,
		"occurredAt": `{"outcome":"replied","occurredAt":"2026-03-02T09:06:00Z"}`,
		"source":     `{"outcome":"replied","source":"` + strings.Repeat("s", 101) + `"}`,
	} {
		res := post(gifts[0], body, owned)
		require.Equal(t, http.StatusBadRequest, res.Status, "%s", res.Body)
		require.Equal(t, string(core.CodeValidation), res.code())
		require.Contains(t, res.message(), field)
	}
	res = post("send_nope", `{"outcome":"replied"}`, owned)
	require.Equal(t, http.StatusNotFound, res.Status)
	res = post(gifts[0], `{"outcome":"replied"}`, withKey(connectionToken))
	require.Equal(t, http.StatusUnauthorized, res.Status, "connections never record outcomes")
	require.Equal(t, http.StatusOK, post(gifts[1], `{"outcome":"replied"}`, owned).Status)

	// GET /tracking pages until nextCursor is null.
	res = h.get("/tracking?limit=1&campaignId="+c.ID, owned)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	page := res.data().(map[string]any)
	require.Len(t, page["items"], 1)
	second := page["items"].([]any)[0].(map[string]any)
	require.Equal(t, gifts[1], second["sendId"])
	require.Equal(t, "replied", second["outcome"])
	res = h.get("/tracking?limit=1&campaignId="+c.ID+"&cursor="+page["nextCursor"].(string), owned)
	page = res.data().(map[string]any)
	require.Nil(t, page["nextCursor"])
	item := page["items"].([]any)[0].(map[string]any)
	require.Equal(t, gifts[0], item["sendId"])
	require.Equal(t, "meeting_booked", item["outcome"])
	require.Equal(t, "ext-Ana", item["attribution"].(map[string]any)["externalId"])
	res = h.get("/tracking?externalId=ext-Ben&status=awaiting_address", owned)
	require.Len(t, res.data().(map[string]any)["items"], 1)
	res = h.get("/tracking?status=approved", owned)
	require.Equal(t, http.StatusBadRequest, res.Status)
	res = h.get("/tracking?limit=101", owned)
	require.Equal(t, http.StatusBadRequest, res.Status)

	// One gift, and one campaign's gifts.
	res = h.get("/sends/"+gifts[0]+"/tracking", owned)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, item, res.data())
	res = h.get("/campaigns/"+c.ID+"/tracking", owned)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Len(t, res.data().(map[string]any)["items"], 2)

	// Results.
	res = h.get("/campaigns/"+c.ID+"/results", owned)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	results := res.data().(map[string]any)
	require.EqualValues(t, 2, results["totalSends"])
	require.EqualValues(t, 2, results["replied"])
	require.EqualValues(t, 1, results["meetings"])
	require.EqualValues(t, 0, results["meetingsHeld"])
	require.Equal(t, results["committedCents"], results["costPerMeetingCents"])
	require.Equal(t, "team_reported", results["outcomeSource"])
	require.Equal(t, "meeting_booked_or_held", results["meetingDenominator"])

	// Another workspace finds none of it.
	other := apptest.NewWorkspace(t, app, apptest.WorkspaceOptions{})
	theirs := withKey(other.OwnerKey)
	for _, path := range []string{"/sends/" + gifts[0] + "/tracking", "/campaigns/" + c.ID + "/tracking", "/campaigns/" + c.ID + "/results", "/tracking?sendId=" + gifts[0]} {
		res := h.get(path, theirs)
		require.Equal(t, http.StatusNotFound, res.Status, path)
	}
	res = post(gifts[0], `{"outcome":"replied"}`, theirs)
	require.Equal(t, http.StatusNotFound, res.Status)
	res = h.get("/tracking", theirs)
	require.Equal(t, []any{}, res.data().(map[string]any)["items"])
}
