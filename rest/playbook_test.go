package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/campaign"
)

// TestPlaybookQueueOverREST: add → waiting → signed-in approve →
// INSUFFICIENT_BALANCE → sandbox top-up → approve → balance and ledger;
// then skip and unskip, with keys refused.
func TestPlaybookQueueOverREST(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	ownerToken, owner := h.env.SignIn(t, h.env.OwnerEmail)
	c, err := h.env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{Name: "Closed-won", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive,
		ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!"})
	require.NoError(t, err)
	post := func(path, body string, opts ...reqOpt) response {
		return h.do(http.MethodPost, path, strings.NewReader(body), append(opts, withJSON(), withHeader("Origin", h.site))...)
	}

	res := post("/playbooks/"+c.ID+"/people", `{"recipient":{"name":"Ana Alvarez","sourceSystem":"crm","externalId":"7"}}`, withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	added := res.data().(map[string]any)
	require.Equal(t, map[string]any{"state": "waiting", "reason": "auto_approve_off"}, added["approval"])
	rid := added["recipientId"].(string)
	res = post("/playbooks/"+c.ID+"/people", `{"recipient":{"sourceSystem":"crm","externalId":"7"}}`, withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, true, res.data().(map[string]any)["alreadyQueued"])
	res = post("/playbooks/"+c.ID+"/people", `{"recipient":{"name":"Bo","email":"nope"}}`, withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusBadRequest, res.Status)
	require.Equal(t, "VALIDATION_ERROR", res.code())
	require.Contains(t, res.message(), "recipient.email: ")

	decision := `{"campaignId":"` + c.ID + `","recipientId":"` + rid + `"}`
	res = post("/queue/approve", decision, withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusForbidden, res.Status)
	require.Equal(t, "HUMAN_APPROVAL_REQUIRED", res.code())
	require.Equal(t, h.site+"/?queue="+c.ID, res.JSON["url"])
	res = post("/queue/approve", decision, withCookie(ownerToken))
	require.Equal(t, http.StatusPaymentRequired, res.Status, "%s", res.Body)
	require.Equal(t, "INSUFFICIENT_BALANCE", res.code())
	require.Equal(t, h.site+"/balance", res.JSON["url"])

	res = post("/balance/topup", `{"cents":10000,"idempotencyKey":"rest-queue-topup"}`, withCookie(ownerToken))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.NoError(t, h.env.App.Ledger.CompleteTopup(ctx, res.data().(map[string]any)["sessionId"].(string)))
	res = post("/queue/approve", decision, withCookie(ownerToken))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	sent := res.data().(map[string]any)
	require.Equal(t, 9_000.0, sent["totalCents"])
	require.Equal(t, "balance", sent["fundedBy"])
	again := post("/queue/approve", decision, withCookie(ownerToken))
	require.Equal(t, sent["id"], again.data().(map[string]any)["id"], "approving again returns the same gift")
	res = h.get("/balance", withKey(h.env.OwnerKey))
	require.Equal(t, 1_000.0, res.data().(map[string]any)["cents"])
	res = h.get("/balance/ledger", withKey(h.env.OwnerKey))
	entries := res.data().([]any)
	require.Len(t, entries, 2)
	require.Equal(t, "debit", entries[0].(map[string]any)["kind"])
	require.Equal(t, -9_000.0, entries[0].(map[string]any)["cents"])
	require.Equal(t, sent["id"], entries[0].(map[string]any)["sendId"])

	// Skip and unskip another person.
	res = post("/playbooks/"+c.ID+"/people", `{"recipient":{"name":"Cleo Chen","email":"cleo@example.com"}}`, withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	cleo := `{"campaignId":"` + c.ID + `","recipientId":"` + res.data().(map[string]any)["recipientId"].(string) + `"`
	res = post("/queue/skip", cleo+`,"reason":"`+strings.Repeat("x", 201)+`"}`, withCookie(ownerToken))
	require.Equal(t, http.StatusBadRequest, res.Status)
	require.Equal(t, "VALIDATION_ERROR", res.code())
	res = post("/queue/skip", cleo+`,"reason":"Already a customer"}`, withCookie(ownerToken))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, map[string]any{"skipped": true}, res.data())
	res = post("/playbooks/"+c.ID+"/people", `{"recipient":{"name":"Cleo Chen","email":"cleo@example.com"}}`, withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusConflict, res.Status)
	require.Equal(t, "RECIPIENT_SKIPPED", res.code())
	res = post("/queue/unskip", cleo+`}`, withCookie(ownerToken))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, map[string]any{"skipped": false}, res.data())
}
