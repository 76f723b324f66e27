package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/sql/db"
)

// TestQueueOverREST reads GET /queue (the whole queue, no paging) and
// GET /queue/skipped (newest first), validated against the OpenAPI documents.
func TestQueueOverREST(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t)
	app := h.env.App
	key, err := app.Connect.Authenticate(ctx, h.env.OwnerKey)
	require.NoError(t, err)
	_, owner := h.env.SignIn(t, h.env.OwnerEmail)
	member := h.env.AddPerson(t, core.RoleMember)
	q := db.New(app.DB)

	playbook := func(name string) string {
		c, err := app.Campaigns.CreateCampaign(ctx, key, campaign.CampaignInput{Name: name, Mode: campaign.ModeAlwaysOn, ProductID: "gourmet-snack-crate",
			SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!"})
		require.NoError(t, err)
		active := campaign.StatusActive
		_, err = app.Campaigns.UpdateCampaign(ctx, owner, c.ID, campaign.CampaignPatch{Status: &active})
		require.NoError(t, err)
		return c.ID
	}
	add := func(campaignID, name string) string {
		res, err := app.Campaigns.AddRecipients(ctx, key, campaignID, campaign.RecipientsAdd{Recipients: []campaign.RecipientInput{{Name: name, Company: "Acme"}}})
		require.NoError(t, err)
		_, err = q.RecipientSetApproval(ctx, db.RecipientSetApprovalParams{
			ApprovalState: string(campaign.ApprovalWaiting), ApprovalReason: string(campaign.ReasonAutoApproveOff),
			UpdatedAt: h.env.Clock.Now(), CampaignID: campaignID, ID: res.Added[0],
		})
		require.NoError(t, err)
		return res.Added[0]
	}
	names := func(res response) []string {
		require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
		var out []string
		for _, it := range res.data().([]any) {
			out = append(out, it.(map[string]any)["recipient"].(map[string]any)["name"].(string))
		}
		return out
	}

	res := h.get("/queue", withKey(member.Key))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, []any{}, res.data())

	a, b := playbook("Closed-won"), playbook("Renewals")
	var want []string
	for i := range 60 {
		name := fmt.Sprintf("Person %02d", i)
		campaign := a
		if i%3 == 0 {
			campaign = b
		}
		add(campaign, name)
		want = append(want, name)
	}
	require.Equal(t, want, names(h.get("/queue", withKey(member.Key))), "all 60, beyond MCP's default page of 50")
	onB := names(h.get("/queue?campaignId="+b, withCookie(mustSession(t, h, h.env.OwnerEmail))))
	require.Len(t, onB, 20)
	require.Equal(t, "Person 00", onB[0])

	first := h.get("/queue?campaignId="+a, withKey(h.env.OwnerKey)).data().([]any)[0].(map[string]any)
	require.Equal(t, []any{"Add funds"}, first["blockers"])
	require.Equal(t, "Thanks, Person!", first["message"])
	require.Equal(t, h.site+"/?queue="+a, first["approvalUrl"])

	res = h.get("/queue?campaignId=cmp_nope", withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusNotFound, res.Status)
	require.Equal(t, "NOT_FOUND", res.code())
	require.Contains(t, res.message(), "campaignId")
	res = h.get("/queue?limit=2", withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusBadRequest, res.Status, "REST does not page: %s", res.Body)
	res = h.get("/queue")
	require.Equal(t, http.StatusUnauthorized, res.Status)
	res = h.get("/queue", withKey(connectionToken))
	require.Equal(t, http.StatusUnauthorized, res.Status, "connections read the queue over MCP only")

	// Skipped people, newest first.
	skip := func(campaignID, recipientID, reason string) {
		now := h.env.Clock.Now()
		_, err := q.RecipientSkip(ctx, db.RecipientSkipParams{SkipReason: reason, SkippedBy: h.env.OwnerID, SkippedAt: &now, CampaignID: campaignID, ID: recipientID})
		require.NoError(t, err)
		h.env.Clock.Advance(time.Minute)
	}
	older, newer := add(a, "Olive"), add(b, "Nate")
	skip(a, older, "already a customer")
	skip(b, newer, "")
	res = h.get("/queue/skipped", withKey(member.Key))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	skipped := res.data().([]any)
	require.Len(t, skipped, 2)
	require.Equal(t, newer, skipped[0].(map[string]any)["recipientId"])
	require.Equal(t, "Renewals", skipped[0].(map[string]any)["campaignName"])
	require.Equal(t, older, skipped[1].(map[string]any)["recipientId"])
	require.Equal(t, "already a customer", skipped[1].(map[string]any)["reason"])
	require.Equal(t, map[string]any{"name": "Olive", "company": "Acme"}, skipped[1].(map[string]any)["recipient"])
	res = h.get("/queue/skipped?campaignId="+a, withKey(member.Key))
	require.Len(t, res.data(), 1)
	res = h.get("/queue/skipped?campaignId=cmp_nope", withKey(member.Key))
	require.Equal(t, "NOT_FOUND", res.code())
	require.Equal(t, want, names(h.get("/queue", withKey(member.Key))), "skipped people left the queue")
}

// mustSession signs email in and returns the session token.
func mustSession(t *testing.T, h *harness, email string) string {
	t.Helper()
	token, _ := h.env.SignIn(t, email)
	return token
}
