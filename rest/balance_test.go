package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

func TestBalanceOverREST(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	member := h.env.AddPerson(t, core.RoleMember)
	ownerToken, _ := h.env.SignIn(t, h.env.OwnerEmail)
	memberToken, _ := h.env.SignIn(t, member.Email)
	topup := func(body string, opts ...reqOpt) response {
		return h.do(http.MethodPost, "/balance/topup", strings.NewReader(body),
			append(opts, withJSON(), withHeader("Origin", h.site))...)
	}

	res := h.get("/balance", withKey(member.Key))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, map[string]any{"cents": 0.0, "mode": "test", "lowBalance": false, "topUpUrl": h.site + "/balance"}, res.data())
	res = h.get("/balance/ledger", withKey(member.Key))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, []any{}, res.data())

	// Keys never add funds; members signed in neither.
	res = topup(`{"cents":5000,"idempotencyKey":"rest-topup-1"}`, withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusForbidden, res.Status)
	require.Equal(t, "HUMAN_APPROVAL_REQUIRED", res.code())
	require.Equal(t, h.site+"/balance", res.JSON["url"])
	res = topup(`{"cents":5000,"idempotencyKey":"rest-topup-1"}`, withCookie(memberToken))
	require.Equal(t, http.StatusForbidden, res.Status)
	require.Equal(t, "TEAM_MANAGER_REQUIRED", res.code())

	// Bounds are named by field.
	for body, field := range map[string]string{
		`{"cents":2499,"idempotencyKey":"rest-topup-1"}`:    "cents",
		`{"cents":2000001,"idempotencyKey":"rest-topup-1"}`: "cents",
		`{"cents":5000,"idempotencyKey":"short"}`:           "idempotencyKey",
	} {
		res = topup(body, withCookie(ownerToken))
		require.Equal(t, http.StatusBadRequest, res.Status, body)
		require.Equal(t, "VALIDATION_ERROR", res.code())
		require.Contains(t, res.message(), field, body)
	}

	res = topup(`{"cents":5000,"idempotencyKey":"rest-topup-1"}`, withCookie(ownerToken))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	session := res.data().(map[string]any)
	require.Equal(t, h.site+"/sandbox/pay/"+session["sessionId"].(string), session["url"])
	again := topup(`{"cents":5000,"idempotencyKey":"rest-topup-1"}`, withCookie(ownerToken))
	require.Equal(t, session, again.data())
	res = topup(`{"cents":6000,"idempotencyKey":"rest-topup-1"}`, withCookie(ownerToken))
	require.Equal(t, http.StatusConflict, res.Status)
	require.Equal(t, "IDEMPOTENCY_CONFLICT", res.code())

	require.NoError(t, h.env.App.Ledger.CompleteTopup(ctx, session["sessionId"].(string)))
	res = topup(`{"cents":2500,"idempotencyKey":"rest-topup-2"}`, withCookie(ownerToken))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.NoError(t, h.env.App.Ledger.CompleteTopup(ctx, res.data().(map[string]any)["sessionId"].(string)))

	res = h.get("/balance", withKey(member.Key))
	require.Equal(t, 7_500.0, res.data().(map[string]any)["cents"])
	res = h.get("/balance/ledger?limit=1", withCookie(ownerToken))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	entries := res.data().([]any)
	require.Len(t, entries, 1)
	newest := entries[0].(map[string]any)
	require.Equal(t, "topup", newest["kind"])
	require.Equal(t, 2_500.0, newest["cents"])
	require.Nil(t, newest["sendId"])
	require.Nil(t, newest["campaignId"])
	res = h.get("/balance/ledger", withKey(member.Key))
	entries = res.data().([]any)
	require.Len(t, entries, 2)
	require.Equal(t, 5_000.0, entries[1].(map[string]any)["cents"], "newest first")
	for _, bad := range []string{"0", "201", "many"} {
		res = h.get("/balance/ledger?limit="+bad, withKey(member.Key))
		require.Equal(t, http.StatusBadRequest, res.Status, bad)
		require.Equal(t, "VALIDATION_ERROR", res.code())
	}
}
