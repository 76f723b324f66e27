package rest_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/identity"
)

func init() {
	// CSV downloads are validated like every other response.
	openapi3filter.RegisterBodyDecoder("text/csv", openapi3filter.PlainBodyDecoder)
}

// jsonBody encodes v as a request body.
func jsonBody(t *testing.T, v any) io.Reader {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return strings.NewReader(string(b))
}

// signedIn are the options of a request from the site's pages by a signed-in person.
func signedIn(h *harness, token string) []reqOpt {
	return []reqOpt{
		func(r *http.Request) { r.AddCookie(&http.Cookie{Name: identity.SessionCookieName, Value: token}) },
		withHeader("Origin", h.site),
	}
}

type jsonObj = map[string]any

func TestCampaignsOverREST(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	key := withKey(h.env.OwnerKey)
	post := func(path string, body any, opts ...reqOpt) response {
		return h.do(http.MethodPost, path, jsonBody(t, body), append([]reqOpt{withJSON()}, opts...)...)
	}
	patch := func(path string, body any, opts ...reqOpt) response {
		return h.do(http.MethodPatch, path, jsonBody(t, body), append([]reqOpt{withJSON()}, opts...)...)
	}

	// Create a playbook, idempotently.
	playbook := jsonObj{"name": "Closed-won thanks", "mode": "always_on", "productId": "engraved-walnut-desk-organizer",
		"senderName": "Sam Seller", "senderCompany": "Acme", "message": "Thank you, {{firstName}}!",
		"customization": jsonObj{"displayText": "Thank you\n2026"}, "idempotencyKey": "closed-won-playbook"}
	res := post("/campaigns", playbook, key)
	require.Equal(t, http.StatusCreated, res.Status, "%s", res.Body)
	pb := res.data().(jsonObj)
	pid := pb["id"].(string)
	require.EqualValues(t, 8000, pb["perPersonCents"])
	res = post("/campaigns", playbook, key)
	require.Equal(t, http.StatusCreated, res.Status)
	require.Equal(t, pid, res.data().(jsonObj)["id"])
	playbook["name"] = "Something else"
	res = post("/campaigns", playbook, key)
	require.Equal(t, http.StatusConflict, res.Status)
	require.Equal(t, "IDEMPOTENCY_CONFLICT", res.code())
	require.True(t, strings.HasPrefix(res.message(), "idempotencyKey: "), res.message())

	// Create a batch; batches need their limits.
	res = post("/campaigns", jsonObj{"name": "Q3 renewals", "productId": "gourmet-snack-crate", "senderName": "Sam", "senderCompany": "Acme"}, key)
	require.Equal(t, http.StatusBadRequest, res.Status)
	require.Equal(t, "VALIDATION_ERROR", res.code())
	require.Contains(t, res.message(), "budgetCents: ")
	res = post("/campaigns", jsonObj{"name": "Q3 renewals", "productId": "gourmet-snack-crate", "senderName": "Sam", "senderCompany": "Acme",
		"budgetCents": 90000, "perPersonCents": 9000, "maxSends": 10, "message": "Enjoy, {{firstName}}", "unknown": true}, key)
	require.Equal(t, http.StatusBadRequest, res.Status)
	require.Contains(t, res.message(), "unknown: is not a known field")
	res = post("/campaigns", jsonObj{"name": "Q3 renewals", "productId": "gourmet-snack-crate", "senderName": "Sam", "senderCompany": "Acme",
		"budgetCents": 90000, "perPersonCents": 9000, "maxSends": 10, "message": "Enjoy, {{firstName}}"}, key)
	require.Equal(t, http.StatusCreated, res.Status, "%s", res.Body)
	bid := res.data().(jsonObj)["id"].(string)
	res = post("/campaigns", jsonObj{"name": "Old pen", "productId": "engraved-rollerball-pen", "senderName": "Sam", "senderCompany": "Acme", "mode": "always_on"}, key)
	require.Equal(t, http.StatusConflict, res.Status)
	require.Equal(t, "GIFT_RETIRED", res.code())

	// Lists and reads.
	res = h.get("/campaigns", key)
	require.Equal(t, http.StatusOK, res.Status)
	list := res.data().([]any)
	require.Len(t, list, 2)
	require.Equal(t, bid, list[0].(jsonObj)["id"], "newest first")
	res = h.get("/campaigns?mode=always_on", key)
	require.Len(t, res.data(), 1)
	res = h.get("/campaigns?mode=weekly", key)
	require.Equal(t, http.StatusBadRequest, res.Status)
	require.True(t, strings.HasPrefix(res.message(), "mode: "), res.message())
	res = h.get("/campaigns/cmp_000000000000000000000000", key)
	require.Equal(t, http.StatusNotFound, res.Status)

	// Versions on PATCH.
	res = patch("/campaigns/"+bid, jsonObj{"name": "Q3 renewals (EMEA)"}, key)
	require.Equal(t, http.StatusBadRequest, res.Status)
	require.True(t, strings.HasPrefix(res.message(), "expectedPolicyVersion: "), res.message())
	res = patch("/campaigns/"+bid, jsonObj{"name": "Q3 renewals (EMEA)", "expectedPolicyVersion": 5}, key)
	require.Equal(t, http.StatusConflict, res.Status)
	require.Equal(t, "POLICY_CHANGED", res.code())
	require.Equal(t, true, res.JSON["retryable"])
	res = patch("/campaigns/"+bid, jsonObj{"name": "Q3 renewals (EMEA)", "expectedPolicyVersion": 1}, key)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.EqualValues(t, 2, res.data().(jsonObj)["policyVersion"])
	res = patch("/campaigns/"+pid, jsonObj{"status": "active", "expectedPolicyVersion": 1}, key)
	require.Equal(t, http.StatusForbidden, res.Status)
	require.Equal(t, "HUMAN_APPROVAL_REQUIRED", res.code())
	require.Equal(t, h.site+"/campaigns/"+pid+"?review=1", res.JSON["url"])

	// Add people with every identity form.
	res = post("/campaigns/"+bid+"/recipients", jsonObj{"expectedPolicyVersion": 2, "recipients": []jsonObj{
		{"name": "Ana Alvarez", "company": "Acme", "email": "ana@example.com"},
		{"profileUrl": "https://uk.linkedin.com/in/ben-baker/"},
		{"sourceSystem": "hubspot", "externalId": "301", "name": "Cleo Chen"},
		{"name": "Dev Das", "addressMode": "known", "address": "500 Congress Ave", "city": "Austin", "state": "Texas", "zip": "78701"},
	}}, key)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	added := res.data().(jsonObj)
	require.Len(t, added["added"], 4)
	require.EqualValues(t, 3, added["policyVersion"])
	roster := added["recipients"].([]any)
	require.Equal(t, "https://www.linkedin.com/in/ben-baker", roster[1].(jsonObj)["profileUrl"])
	require.Equal(t, "TX", roster[3].(jsonObj)["state"])
	res = post("/campaigns/"+bid+"/recipients", jsonObj{"expectedPolicyVersion": 3, "recipients": []jsonObj{
		{"name": "E", "addressMode": "known", "address": "1 Main", "city": "Austin", "state": "TX", "zip": "1234"},
	}}, key)
	require.Equal(t, http.StatusBadRequest, res.Status)
	require.True(t, strings.HasPrefix(res.message(), "recipients[0].zip: "), res.message())
	res = post("/campaigns/"+bid+"/recipients", jsonObj{"expectedPolicyVersion": 3, "recipients": []jsonObj{
		{"name": "F", "email": "f@example.com"}, {"name": "F again", "email": "F@example.com"},
	}}, key)
	require.Equal(t, http.StatusConflict, res.Status)
	require.Equal(t, "DUPLICATE_RECIPIENT", res.code())
	require.True(t, strings.HasPrefix(res.message(), "recipients[1]: "), res.message())

	// Bulk message, preview, repeats.
	anaID := roster[0].(jsonObj)["recipientId"]
	res = post("/campaigns/"+bid+"/recipients/bulk", jsonObj{"action": "message", "recipientIds": []any{anaID}, "message": "Ana, thanks for the renewal!", "expectedPolicyVersion": 3}, key)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.EqualValues(t, 4, res.data().(jsonObj)["policyVersion"])
	res = h.get("/campaigns/"+bid+"/preview", key)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	preview := res.data().(jsonObj)
	require.EqualValues(t, 4, preview["recipientCount"])
	require.EqualValues(t, 36000, preview["totalCents"])
	require.Equal(t, "review", preview["nextAction"])
	res = h.get("/campaigns/"+bid+"/repeats", key)
	require.Equal(t, http.StatusOK, res.Status)
	require.Equal(t, []any{}, res.data())

	// A repeat: Ana was gifted by the playbook before.
	ctx := context.Background()
	p, err := h.env.App.Connect.Authenticate(ctx, h.env.OwnerKey)
	require.NoError(t, err)
	prior, err := h.env.App.Campaigns.AddRecipients(ctx, p, pid, campaign.RecipientsAdd{ExpectedPolicyVersion: 1, Recipients: []campaign.RecipientInput{{Name: "Ana A.", Email: "ANA@example.com"}}})
	require.NoError(t, err)
	priorSend, err := h.env.App.Approvals.InsertSend(ctx, p, approval.SendParams{CampaignID: pid, RecipientID: prior.Added[0], TotalCents: 8000})
	require.NoError(t, err)
	res = h.get("/campaigns/"+bid+"/repeats", key)
	require.Equal(t, []any{jsonObj{"recipientId": anaID, "email": "ana@example.com", "name": "Ana Alvarez", "priorSendId": priorSend, "approved": false}}, res.data())
	approve := jsonObj{"recipientIds": []any{anaID}}
	res = post("/campaigns/"+bid+"/repeat-approvals", approve, key)
	require.Equal(t, http.StatusForbidden, res.Status)
	require.Equal(t, "HUMAN_APPROVAL_REQUIRED", res.code())
	require.Equal(t, h.site+"/campaigns/"+bid+"?review=1", res.JSON["url"])

	// A signed-in owner approves the repeat and turns the playbook on.
	token, _ := h.env.SignIn(t, h.env.OwnerEmail)
	owner := signedIn(h, token)
	res = post("/campaigns/"+bid+"/repeat-approvals", approve, owner...)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, true, res.data().([]any)[0].(jsonObj)["approved"])
	res = patch("/campaigns/"+pid, jsonObj{"status": "active"}, owner...)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, "active", res.data().(jsonObj)["status"])
	res = patch("/campaigns/"+bid, jsonObj{"status": "active"}, owner...)
	require.Equal(t, http.StatusConflict, res.Status)
	require.Equal(t, "INVALID_REQUEST", res.code())

	// Sign-in connections work on MCP, not on these routes.
	res = h.get("/campaigns", withKey(connectionToken))
	require.Equal(t, http.StatusUnauthorized, res.Status)

	// The export: CSV with IDs, no emails or names.
	exp := h.csv("/campaigns/"+pid+"/export", key)
	require.Equal(t, http.StatusOK, exp.StatusCode)
	require.Equal(t, "text/csv; charset=utf-8", exp.Header.Get("Content-Type"))
	require.Contains(t, exp.Header.Get("Content-Disposition"), pid+"-gifts.csv")
	rows, err := csv.NewReader(strings.NewReader(exp.body)).ReadAll()
	require.NoError(t, err)
	require.Equal(t, campaign.CampaignExportColumns, rows[0])
	require.Len(t, rows, 2)
	require.Equal(t, []string{priorSend, pid, prior.Added[0], "engraved-walnut-desk-organizer"}, rows[1][:4])
	// The gift's status is one of the spec's set: approved with no address
	// given, it awaits the recipient's (it was "approved" before the gifts
	// issue; a deliberate contract change).
	require.Equal(t, []string{"test", "awaiting_address", "none", "8000"}, rows[1][9:13])
	require.Equal(t, []string{"", "", ""}, rows[1][14:], "a gift recorded as history has no trail")
	require.NotContains(t, exp.body, "ana@example.com")
	require.NotContains(t, exp.body, "Ana")
	exp = h.csv("/campaigns/"+bid+"/export", key)
	require.Equal(t, strings.Join(campaign.CampaignExportColumns, ",")+"\n", exp.body, "no gifts yet: the header only")
	require.Equal(t, http.StatusNotFound, h.csv("/campaigns/cmp_000000000000000000000000/export", key).StatusCode)
	require.Equal(t, http.StatusUnauthorized, h.csv("/campaigns/"+pid+"/export").StatusCode)
}

// csvResponse is a download's answer.
type csvResponse struct {
	*http.Response
	body string
}

// csv GETs a download; the client validates the answer against the OpenAPI documents.
func (h *harness) csv(path string, opts ...reqOpt) csvResponse {
	h.t.Helper()
	req, err := http.NewRequest(http.MethodGet, h.base+path, nil)
	require.NoError(h.t, err)
	for _, o := range opts {
		o(req)
	}
	res, err := h.srv.Client().Do(req)
	require.NoError(h.t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(h.t, err)
	out := response{Status: res.StatusCode, Header: res.Header, Body: raw}
	if res.StatusCode >= 300 {
		require.NoError(h.t, json.Unmarshal(raw, &out.JSON))
		checkEnvelope(h.t, res.StatusCode, raw)
	}
	return csvResponse{Response: res, body: string(raw)}
}
