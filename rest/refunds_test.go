package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/giftlink"
)

// TestGiftRefundsOverREST asks a refund with POST
// /sends/{id}/gift-link/refund (a signed-in owner only) and reads the
// campaign's history with GET /campaigns/{id}/gift-refunds before and after
// staff approve it, validated against the OpenAPI documents.
func TestGiftRefundsOverREST(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t)
	app := h.env.App
	ownerToken, owner := h.env.SignIn(t, h.env.OwnerEmail)
	h.env.TopUp(t, owner, 100_000)
	c, err := app.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{Name: "Links", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive,
		ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!"})
	require.NoError(t, err)
	added, err := app.Approvals.AddToPlaybook(ctx, owner, c.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{Name: "Ana Lee"}})
	require.NoError(t, err)
	sent, err := app.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: added.RecipientID})
	require.NoError(t, err)
	_, err = app.GiftLinks.Revoke(ctx, owner, sent.ID, 1)
	require.NoError(t, err)
	refund := func(body string, opts ...reqOpt) response {
		return h.do(http.MethodPost, "/sends/"+sent.ID+"/gift-link/refund", strings.NewReader(body),
			append(opts, withJSON(), withHeader("Origin", h.site))...)
	}

	res := refund(`{"reason":"wrong person"}`, withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusForbidden, res.Status, "%s", res.Body)
	require.Equal(t, "HUMAN_APPROVAL_REQUIRED", res.code())
	require.Equal(t, h.site+"/gifts/"+sent.ID, res.JSON["url"])
	res = refund(`{}`, withCookie(ownerToken))
	require.Equal(t, http.StatusBadRequest, res.Status, "%s", res.Body)
	require.Contains(t, res.message(), "reason")

	res = refund(`{"reason":"wrong person"}`, withCookie(ownerToken))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	r := res.data().(map[string]any)
	require.Equal(t, []any{sent.ID, c.ID, "requested", false, "wrong person", float64(sent.TotalCents), "balance"},
		[]any{r["sendId"], r["campaignId"], r["state"], r["refunded"], r["reason"], r["amountCents"], r["fundedBy"]})

	res = h.get("/campaigns/"+c.ID+"/gift-refunds", withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, []any{r}, res.data())
	res = h.get("/campaigns/"+c.ID+"/gift-links", withKey(h.env.OwnerKey))
	link := res.data().([]any)[0].(map[string]any)
	require.Equal(t, []any{"requested", false}, []any{link["refundState"], link["canRequestRefund"]})

	_, err = app.GiftLinks.DecideRefund(ctx, sent.ID, giftlink.RefundApprove)
	require.NoError(t, err)
	res = h.get("/campaigns/"+c.ID+"/gift-refunds", withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	done := res.data().([]any)[0].(map[string]any)
	require.Equal(t, []any{"refunded", true}, []any{done["state"], done["refunded"]})
	res = h.get("/campaigns/cmp_none/gift-refunds", withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusNotFound, res.Status)
}
