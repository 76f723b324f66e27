package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/campaign"
)

// TestDatabaseOutageOverREST: while the database is down, every answer is
// 503 SERVICE_UNAVAILABLE with Retry-After: retry_later (retryable) for a
// read and for a refusal before the operation ran (a key or a session that
// could not be looked up is never 401), reread_and_retry after an
// operation that may have written began. Never INTERNAL_ERROR. When the
// database is back, the same requests succeed without a restart.
func TestDatabaseOutageOverREST(t *testing.T) {
	t.Parallel()
	h := newHarness(t, faulty)
	ctx := context.Background()
	ownerToken, owner := h.env.SignIn(t, h.env.OwnerEmail)
	c, err := h.env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{Name: "Closed-won", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive,
		ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!"})
	require.NoError(t, err)
	add := func(opts ...reqOpt) response {
		return h.do(http.MethodPost, "/playbooks/"+c.ID+"/people", strings.NewReader(`{"recipient":{"name":"Ana Alvarez","sourceSystem":"crm","externalId":"7"}}`),
			append(opts, withJSON(), withHeader("Origin", h.site))...)
	}
	unavailable := func(res response, next string) {
		t.Helper()
		require.Equal(t, http.StatusServiceUnavailable, res.Status, "%s", res.Body)
		require.Equal(t, "SERVICE_UNAVAILABLE", res.code())
		require.Equal(t, next, res.JSON["nextAction"])
		require.Equal(t, next == "retry_later", res.JSON["retryable"])
		require.Positive(t, res.JSON["retryAfterMs"])
		require.NotEmpty(t, res.Header.Get("Retry-After"))
		require.NotContains(t, string(res.Body), "EOF")
		require.NotContains(t, string(res.Body), "connect")
	}

	h.env.Faults.Down()
	unavailable(h.get("/campaigns/"+c.ID, withKey(h.env.OwnerKey)), "retry_later")
	unavailable(h.get("/campaigns/"+c.ID, withCookie(ownerToken)), "retry_later")
	unavailable(add(withKey(h.env.OwnerKey)), "retry_later") // the key's lookup failed: nothing ran
	// A caller whose authentication needs no database reaches the
	// operation: a read is retry_later, a write reread_and_retry.
	unavailable(h.get("/campaigns/"+c.ID, withKey(offlineKeyToken)), "retry_later")
	unavailable(add(withKey(offlineKeyToken)), "reread_and_retry")
	require.NotContains(t, h.logs.String(), "INTERNAL_ERROR")

	require.NoError(t, h.env.Faults.Up())
	back := time.Now()
	require.Eventually(t, func() bool {
		return h.get("/campaigns/"+c.ID, withKey(h.env.OwnerKey)).Status == http.StatusOK
	}, 5*time.Second, 50*time.Millisecond, "served again within 5 seconds of the database returning")
	t.Logf("served again %v after the database returned", time.Since(back).Round(time.Millisecond))
	res := add(withCookie(ownerToken))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, "waiting", res.data().(map[string]any)["approval"].(map[string]any)["state"])
}
