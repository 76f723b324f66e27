package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
)

// TestGiftLinksOverREST reads a campaign's links with GET
// /campaigns/{id}/gift-links, changes a message, regifts and revokes with
// the /sends/{id}/gift-link routes and reads the history with GET
// /campaigns/{id}/gift-link-settings, validated against the OpenAPI
// documents: stale versions are 409 GIFT_LINK_CONFLICT, refusals name their
// field, and connections reach none of these routes.
func TestGiftLinksOverREST(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t)
	app := h.env.App
	_, owner := h.env.SignIn(t, h.env.OwnerEmail)
	key, err := app.Connect.Authenticate(ctx, h.env.OwnerKey)
	require.NoError(t, err)
	h.env.TopUp(t, owner, 100_000)
	c, err := app.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{Name: "Links", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive,
		ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!"})
	require.NoError(t, err)
	added, err := app.Approvals.AddToPlaybook(ctx, key, c.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{Name: "Ana Lee", Company: "Initech"}})
	require.NoError(t, err)
	sent, err := app.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: added.RecipientID})
	require.NoError(t, err)
	owned := withKey(h.env.OwnerKey)
	post := func(path, body string) response {
		t.Helper()
		return h.do(http.MethodPost, path, strings.NewReader(body), withJSON(), owned)
	}

	res := h.get("/campaigns/"+c.ID+"/gift-links", owned)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	items := res.data().([]any)
	require.Len(t, items, 1)
	link := items[0].(map[string]any)
	require.Equal(t, sent.ID, link["sendId"])
	require.Equal(t, "active", link["linkState"])
	require.True(t, strings.HasPrefix(link["url"].(string), h.env.SiteURL+"/g/"))

	res = post("/sends/"+sent.ID+"/gift-link/message", `{"generation":1,"expectedMessageVersion":1,"message":"Hi {{firstName}}"}`)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, float64(2), res.data().(map[string]any)["messageVersion"])
	res = post("/sends/"+sent.ID+"/gift-link/message", `{"generation":1,"expectedMessageVersion":1,"message":"again"}`)
	require.Equal(t, http.StatusConflict, res.Status, "%s", res.Body)
	require.Equal(t, string(core.CodeGiftLinkConflict), res.code())
	require.Contains(t, res.message(), "expectedMessageVersion")
	res = post("/campaigns/"+c.ID+"/gift-links/message", `{"message":"All of you","links":[{"sendId":"`+sent.ID+`","generation":1,"expectedMessageVersion":2}]}`)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, "All of you", res.data().([]any)[0].(map[string]any)["landingMessage"])
	for field, body := range map[string]string{
		"message":                "{\"generation\":1,\"expectedMessageVersion\":3,\"message\":\"" + strings.Repeat("m", 501) + "\"}",
		"branding.senderCompany": `{"generation":1,"expectedMessageVersion":3,"branding":{"senderName":"Sam","senderCompany":"","contactEmail":"","logoAssetId":""}}`,
		"generation":             `{"expectedMessageVersion":3,"message":"x"}`,
	} {
		res := post("/sends/"+sent.ID+"/gift-link/message", body)
		require.Equal(t, http.StatusBadRequest, res.Status, "%s: %s", field, res.Body)
		require.Contains(t, res.message(), field)
	}

	res = post("/sends/"+sent.ID+"/gift-link/revoke", `{"generation":1}`)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, "revoked", res.data().(map[string]any)["linkState"])
	res = post("/sends/"+sent.ID+"/gift-link/regift", `{"generation":2,"recipient":{"name":"Bo"},"message":""}`)
	require.Equal(t, http.StatusConflict, res.Status, "%s", res.Body)
	require.Equal(t, string(core.CodeGiftLinkConflict), res.code())
	res = post("/sends/"+sent.ID+"/gift-link/regift", `{"generation":1,"recipient":{"name":"Bo Diaz","email":"bo@example.com"},"message":""}`)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	regifted := res.data().(map[string]any)
	require.Equal(t, float64(2), regifted["generation"])
	require.NotEqual(t, link["url"], regifted["url"])

	res = h.get("/campaigns/"+c.ID+"/gift-link-settings", owned)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	history := res.data().(map[string]any)["history"].([]any)
	require.Len(t, history, 4)
	require.Equal(t, "regift", history[0].(map[string]any)["change"])

	// The retired routes stay retired; connections reach none of these.
	res = post("/sends/"+sent.ID+"/gift-link/email", `{}`)
	require.Equal(t, http.StatusGone, res.Status)
	for _, path := range []string{"/campaigns/" + c.ID + "/gift-links", "/campaigns/" + c.ID + "/gift-link-settings"} {
		res := h.get(path, withKey(connectionToken))
		require.Equal(t, http.StatusUnauthorized, res.Status, path)
	}
	other := h.get("/campaigns/cmp_nope/gift-links", owned)
	require.Equal(t, http.StatusNotFound, other.Status)
}
