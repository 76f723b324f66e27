package rest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

// TestWebhooksOverREST adds, lists and removes an endpoint and reads and
// retries its deliveries over REST, validated against the OpenAPI
// documents: signed-in owners and admins manage endpoints, owner and admin
// keys read and retry, other keys get HUMAN_APPROVAL_REQUIRED and
// connections reach none of it.
func TestWebhooksOverREST(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }))
	t.Cleanup(rcv.Close)
	h.env.AllowWebhookURLs(t, rcv.URL+"/")
	ownerToken, _ := h.env.SignIn(t, h.env.OwnerEmail)
	owner := []reqOpt{withCookie(ownerToken), withHeader("Origin", h.site), withJSON()}
	key := withKey(h.env.OwnerKey)
	member := h.env.AddPerson(t, core.RoleMember)

	res := h.do(http.MethodPost, "/webhooks", strings.NewReader(`{"url":"`+rcv.URL+`/hook","events":["all"]}`), owner...)
	require.Equal(t, http.StatusCreated, res.Status, "%s", res.Body)
	created := res.data().(map[string]any)
	id := created["id"].(string)
	require.Len(t, created["secret"], 64)
	res = h.do(http.MethodPost, "/webhooks", strings.NewReader(`{"url":"https://127.0.0.1/x","events":["all"]}`), key, withJSON())
	require.Equal(t, http.StatusForbidden, res.Status)
	require.Equal(t, "HUMAN_APPROVAL_REQUIRED", res.code())
	require.Equal(t, h.site+"/settings/webhooks", res.JSON["url"])
	res = h.do(http.MethodPost, "/webhooks", strings.NewReader(`{"url":"https://192.168.1.10/x","events":["all"]}`), owner...)
	require.Equal(t, http.StatusBadRequest, res.Status, "%s", res.Body)
	require.Contains(t, res.message(), "url")
	res = h.do(http.MethodPost, "/webhooks", strings.NewReader(`{"url":"`+rcv.URL+`","events":["send.nope"]}`), owner...)
	require.Equal(t, http.StatusBadRequest, res.Status, "%s", res.Body)
	require.Contains(t, res.message(), "events[0]")

	res = h.get("/webhooks", key)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Len(t, res.data().([]any), 1)
	require.NotContains(t, string(res.Body), created["secret"].(string))
	require.Equal(t, "HUMAN_APPROVAL_REQUIRED", h.get("/webhooks", withKey(member.Key)).code())
	require.Equal(t, http.StatusUnauthorized, h.get("/webhooks", withKey(connectionToken)).Status)

	// An event makes a delivery; one failed attempt leaves it retrying.
	require.NoError(t, pgx.BeginFunc(ctx, h.env.App.DB, func(tx pgx.Tx) error {
		return h.env.App.RecordEvent(ctx, tx, core.EventRecord{WorkspaceID: h.env.WorkspaceID, Type: core.EventSendCreated, Mode: core.ModeTest, SendID: "send_r"})
	}))
	res = h.get("/webhooks/"+id+"/deliveries?source=gift&limit=10", key)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	items := res.data().(map[string]any)["items"].([]any)
	require.Len(t, items, 1)
	delivery := items[0].(map[string]any)
	require.Equal(t, "pending", delivery["state"])
	res = h.do(http.MethodPost, "/webhooks/"+id+"/deliveries/"+delivery["id"].(string)+"/retry?source=gift", nil, key)
	require.Equal(t, http.StatusConflict, res.Status, "%s", res.Body)
	require.Equal(t, "INVALID_REQUEST", res.code(), "an untried delivery is on its way")
	require.Equal(t, http.StatusBadRequest, h.get("/webhooks/"+id+"/deliveries?limit=0", key).Status)
	require.Equal(t, http.StatusNotFound, h.get("/webhooks/whk_000000000000000000000000/deliveries", key).Status)

	res = h.do(http.MethodDelete, "/webhooks/"+id, nil, key)
	require.Equal(t, "HUMAN_APPROVAL_REQUIRED", res.code())
	res = h.do(http.MethodDelete, "/webhooks/"+id, nil, owner...)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	res = h.get("/webhooks", key)
	require.Empty(t, res.data().([]any))
	res = h.get("/webhooks/"+id+"/deliveries", key)
	require.Equal(t, "cancelled", res.data().(map[string]any)["items"].([]any)[0].(map[string]any)["state"])
}
