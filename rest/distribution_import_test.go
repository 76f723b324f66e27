package rest_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/campaign"
)

// TestSourceImportOverREST: a chunked upload, the import from it, a
// DELETE with a body removing a source column, and refusals naming their
// field.
func TestSourceImportOverREST(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, owner := h.env.SignIn(t, h.env.OwnerEmail)
	c, err := h.env.App.Campaigns.CreateCampaign(t.Context(), owner, campaign.CampaignInput{
		Name: "List", Mode: campaign.ModeBatch, ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!",
		BudgetCents: 100_000, PerPersonCents: 9_000, MaxSends: 1,
	})
	require.NoError(t, err)
	key := withKey(h.env.OwnerKey)
	base := "/campaigns/" + c.ID + "/distribution"
	csv := "Name,Email,Region\nAna Alvarez,ana@example.com,West\nBen Brown,ben@example.com,East\n"
	half := len(csv) / 2
	for i, part := range []string{csv[:half], csv[half:]} {
		res := h.do(http.MethodPost, base+"/import-chunks", jsonBody(t, map[string]any{"uploadId": "list-1", "partIndex": i, "partCount": 2,
			"totalBytes": len(csv), "data": base64.StdEncoding.EncodeToString([]byte(part))}), key, withJSON())
		require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
		require.Equal(t, i == 1, res.data().(jsonObj)["complete"])
	}
	res := h.do(http.MethodPost, base+"/import-chunks", jsonBody(t, map[string]any{"uploadId": "list-2", "partIndex": 2, "partCount": 2,
		"totalBytes": 5, "data": "QUJD"}), key, withJSON())
	require.Equal(t, http.StatusBadRequest, res.Status, "%s", res.Body)
	require.Equal(t, "VALIDATION_ERROR", res.code())
	require.True(t, strings.HasPrefix(res.message(), "partIndex"), res.message())

	res = h.do(http.MethodPost, base+"/imports", jsonBody(t, map[string]any{"importId": "list-1", "uploadId": "list-1"}), key, withJSON())
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	sum := res.data().(jsonObj)
	require.Equal(t, jsonObj{"rows": 2.0, "added": 2.0, "alreadyOnRoster": 0.0, "problems": 0.0, "blank": 0.0}, sum["counts"])

	res = h.do(http.MethodDelete, base+"/source-columns", jsonBody(t, map[string]any{"importId": "list-1", "indices": []int{2}}), key, withJSON())
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, []any{0.0, 1.0}, res.data().(jsonObj)["retainedColumnIndices"])

	res = h.do(http.MethodPost, base+"/imports", jsonBody(t, map[string]any{"importId": "list-3", "headers": []string{"name", "note"},
		"rows": [][]string{{"Cy", "@SUM(A1)"}}}), key, withJSON())
	require.Equal(t, http.StatusBadRequest, res.Status, "%s", res.Body)
	require.True(t, strings.HasPrefix(res.message(), "rows[0][1]"), res.message())
}
