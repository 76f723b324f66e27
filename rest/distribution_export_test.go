package rest_test

import (
	"encoding/csv"
	"mime"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/campaign"
)

// TestGiftLinkExportOverREST: POST /campaigns/{id}/distribution/exports
// and GET /distribution/exports/{id} with a key and a sign-in connection:
// the CSV as an attachment, its download URL needing credentials.
func TestGiftLinkExportOverREST(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cid, gifts := giftsFor(t, h.env,
		campaign.RecipientInput{Name: "Ben Brown", Email: "ben@example.com", Company: "+Bolt"},
		campaign.RecipientInput{Name: "Cy Chan", Email: "cy@example.com"})
	key := withKey(h.env.OwnerKey)

	res := h.do(http.MethodPost, "/campaigns/"+cid+"/distribution/exports",
		jsonBody(t, map[string]any{"scope": "all", "preset": "compact", "optionalColumns": []string{"gift_id"}}), key, withJSON())
	require.Equal(t, http.StatusCreated, res.Status, "%s", res.Body)
	exp := res.data().(jsonObj)
	require.Equal(t, jsonObj{"selected": 2.0, "rows": 2.0, "ready": 2.0, "unavailable": 0.0}, exp["counts"])
	url := exp["downloadUrl"].(string)
	require.True(t, strings.HasPrefix(url, h.base+"/distribution/exports/exp_"), url)
	path := strings.TrimPrefix(url, h.base)

	got := h.csv(path, key)
	require.Equal(t, http.StatusOK, got.StatusCode, got.body)
	require.Equal(t, "text/csv; charset=utf-8", got.Header.Get("Content-Type"))
	disposition, params, err := mime.ParseMediaType(got.Header.Get("Content-Disposition"))
	require.NoError(t, err)
	require.Equal(t, "attachment", disposition)
	require.Equal(t, exp["filename"], params["filename"])
	rows, err := csv.NewReader(strings.NewReader(got.body)).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 3)
	require.Equal(t, []string{"Ben Brown", "ben@example.com", "'+Bolt"}, rows[1][:3])
	require.Equal(t, gifts[0], rows[1][8])

	// The URL is not public: no credentials, no file.
	anon := h.csv(path)
	require.Equal(t, http.StatusUnauthorized, anon.StatusCode, anon.body)

	// A sign-in connection with gifts:links:read exports and downloads too.
	bearer := withKey(connectionBearer(t, h.env, true))
	res = h.do(http.MethodPost, "/campaigns/"+cid+"/distribution/exports", jsonBody(t, map[string]any{"scope": "selection", "giftIds": []string{gifts[1]}}), bearer, withJSON())
	require.Equal(t, http.StatusCreated, res.Status, "%s", res.Body)
	got = h.csv(strings.TrimPrefix(res.data().(jsonObj)["downloadUrl"].(string), h.base), bearer)
	require.Equal(t, http.StatusOK, got.StatusCode, got.body)
	require.Contains(t, got.body, "Cy Chan")
	require.NotContains(t, got.body, "Ben Brown")

	// Without gifts:links:read it cannot.
	res = h.do(http.MethodPost, "/campaigns/"+cid+"/distribution/exports", jsonBody(t, map[string]any{"scope": "all"}), withKey(connectionBearer(t, h.env, false)), withJSON())
	require.Equal(t, http.StatusForbidden, res.Status, "%s", res.Body)
	require.Equal(t, "INSUFFICIENT_SCOPE", res.code())

	res = h.do(http.MethodPost, "/campaigns/"+cid+"/distribution/exports", jsonBody(t, map[string]any{"scope": "everything"}), key, withJSON())
	require.Equal(t, http.StatusBadRequest, res.Status, "%s", res.Body)
}
