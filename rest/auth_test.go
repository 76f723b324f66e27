package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

func TestAuthRequired(t *testing.T) {
	t.Parallel()
	h := newHarness(t)

	cases := []struct {
		name string
		opts []reqOpt
	}{
		{"missing", nil},
		{"unknown key", []reqOpt{withKey("gwk_" + core.RandomHex(32))}},
		{"malformed key", []reqOpt{withKey("hello")}},
		{"not bearer", []reqOpt{withHeader("Authorization", "Basic dXNlcjpwYXNz")}},
		{"empty bearer", []reqOpt{withHeader("Authorization", "Bearer ")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := h.get("/workflow", c.opts...)
			require.Equal(t, http.StatusUnauthorized, res.Status)
			require.Equal(t, "AUTH_REQUIRED", res.code())
			require.Equal(t, "Bearer", res.Header.Get("WWW-Authenticate"))
			require.Equal(t, "open_url", res.JSON["nextAction"])
		})
	}
}

func TestRevokedKeyIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	key, id, err := h.env.App.Identity.CreateAPIKey(t.Context(), h.env.WorkspaceID, h.env.OwnerID, "to revoke")
	require.NoError(t, err)

	res := h.get("/workflow", withKey(key))
	require.Equal(t, http.StatusOK, res.Status)

	require.NoError(t, h.env.App.Identity.RevokeAPIKey(t.Context(), h.env.WorkspaceID, id))
	res = h.get("/workflow", withKey(key))
	require.Equal(t, http.StatusUnauthorized, res.Status)
	require.Equal(t, "AUTH_REQUIRED", res.code())

	res = h.get("/session", withKey(key))
	require.Equal(t, http.StatusUnauthorized, res.Status)
}

func TestConnectionOnlyOnDistributionRoutes(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	conn := withKey(connectionToken)

	for _, path := range []string{"/workflow", "/session", "/catalog/search"} {
		res := h.get(path, conn)
		require.Equal(t, http.StatusUnauthorized, res.Status, path)
		require.Equal(t, "AUTH_REQUIRED", res.code(), path)
		require.Contains(t, res.message(), "distribution", path)
	}

	res := h.get("/campaigns/cmp_1/distribution/test-echo", conn)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.JSONEq(t, `{"data":{"id":"cmp_1"}}`, string(res.Body))

	// The public catalog never reads credentials.
	res = h.get("/catalog", conn)
	require.Equal(t, http.StatusOK, res.Status)
}

func TestFailuresAreTranslatedOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	key := withKey(h.env.OwnerKey)

	for _, kind := range []string{"panic", "plain", "unknown"} {
		res := h.get("/test-failures/"+kind, key)
		require.Equal(t, http.StatusInternalServerError, res.Status, kind)
		require.Equal(t, "INTERNAL_ERROR", res.code(), kind)
		require.Equal(t, "an unexpected error occurred", res.message(), kind)
		require.NotContains(t, string(res.Body), "secret", kind)
	}
	logs := h.logs.String()
	require.Contains(t, logs, "test panic: secret detail")
	require.Contains(t, logs, "secret database detail")

	res := h.get("/test-failures/rate", key)
	require.Equal(t, http.StatusTooManyRequests, res.Status)
	require.Equal(t, "RATE_LIMIT", res.code())
	require.Equal(t, "2", res.Header.Get("Retry-After"))
	require.EqualValues(t, 1500, res.JSON["retryAfterMs"])
	require.Equal(t, true, res.JSON["retryable"])

	res = h.get("/test-failures/human", key)
	require.Equal(t, http.StatusForbidden, res.Status)
	require.Equal(t, "HUMAN_APPROVAL_REQUIRED", res.code())
	require.Equal(t, h.site+"/", res.JSON["url"])
}
