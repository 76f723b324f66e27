package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/campaign"
)

// TestLegacyQuoteAndCommitOverREST quotes a batch with POST
// /campaigns/{id}/quotes (a key) and commits it with POST
// /quotes/{quoteId}/commit (a signed-in owner only), validated against the
// OpenAPI documents.
func TestLegacyQuoteAndCommitOverREST(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t)
	ownerToken, owner := h.env.SignIn(t, h.env.OwnerEmail)
	h.env.TopUp(t, owner, 100_000)
	c, err := h.env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{
		Name: "Batch", Mode: campaign.ModeBatch, ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme",
		BudgetCents: 100_000, PerPersonCents: 10_000, MaxSends: 10, Message: "Thanks, {{firstName}}!",
		Recipients: []campaign.RecipientInput{{Name: "Ana Lee"}, {Name: "Bo Chan"}},
	})
	require.NoError(t, err)
	post := func(path string, opts ...reqOpt) response {
		return h.do(http.MethodPost, path, strings.NewReader(`{}`), append(opts, withJSON(), withHeader("Origin", h.site))...)
	}

	res := post("/campaigns/"+c.ID+"/quotes", withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	q := res.data().(map[string]any)
	require.Len(t, q["items"], 2)
	require.Equal(t, "usd", q["currency"])
	id := q["quoteId"].(string)

	res = post("/quotes/"+id+"/commit", withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusForbidden, res.Status, "%s", res.Body)
	require.Equal(t, "HUMAN_APPROVAL_REQUIRED", res.code())
	res = post("/quotes/"+id+"/commit", withCookie(ownerToken))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Len(t, res.data().(map[string]any)["sendIds"], 2)
	res = post("/quotes/quo_none/commit", withCookie(ownerToken))
	require.Equal(t, http.StatusNotFound, res.Status, "%s", res.Body)
}
