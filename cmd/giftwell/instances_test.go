package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
)

// twoInstances serves the Env's App and a second instance on the same
// database (apptest.NewInstance), each listening for catalog changes.
func twoInstances(t *testing.T, env *apptest.Env) (urls [2]string, apps [2]*giftwell.App) {
	t.Helper()
	apps = [2]*giftwell.App{env.App, env.NewInstance(t, nil)}
	for i, app := range apps {
		app.Catalog.Listen()
		srv := httptest.NewServer(routes(app, slog.New(slog.DiscardHandler)))
		t.Cleanup(srv.Close)
		urls[i] = srv.URL
	}
	return urls, apps
}

// TestTwoInstancesDriveOnePlaybook: two servers on one database, a playbook
// flow whose requests alternate between them: add a person, add them again
// (already queued), top up, approve (the balance is too low first), approve
// again (the same gift), read the balance and the ledger. Each step reads
// what the other instance wrote.
func TestTwoInstancesDriveOnePlaybook(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	urls, _ := twoInstances(t, env)
	ctx := context.Background()
	ownerToken, owner := env.SignIn(t, env.OwnerEmail)
	c, err := env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{Name: "Closed-won", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive,
		ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!"})
	require.NoError(t, err)

	step := 0
	var trail []string
	call := func(method, path, body string, signedIn bool, want int) map[string]any {
		t.Helper()
		u := urls[step%2]
		step++
		header := map[string]string{}
		key := env.OwnerKey
		if signedIn {
			key = ""
			header["Cookie"] = identity.SessionCookieName + "=" + ownerToken
			header["Origin"] = env.SiteURL
		}
		res, b := send(t, method, u+"/api/v1"+path, key, body, header)
		require.Equal(t, want, res.StatusCode, "%s %s on instance %d: %s", method, path, (step-1)%2+1, b)
		trail = append(trail, method+" "+path+" → instance "+string(rune('A'+(step-1)%2))+" "+http.StatusText(res.StatusCode))
		var out map[string]any
		require.NoError(t, json.Unmarshal([]byte(b), &out), b)
		if d, ok := out["data"].(map[string]any); ok {
			return d
		}
		return out
	}

	added := call(http.MethodPost, "/playbooks/"+c.ID+"/people", `{"recipient":{"name":"Ana Alvarez","sourceSystem":"crm","externalId":"7"}}`, false, http.StatusOK)
	require.Equal(t, "waiting", added["approval"].(map[string]any)["state"])
	again := call(http.MethodPost, "/playbooks/"+c.ID+"/people", `{"recipient":{"sourceSystem":"crm","externalId":"7"}}`, false, http.StatusOK)
	require.Equal(t, true, again["alreadyQueued"])
	require.Equal(t, added["recipientId"], again["recipientId"])

	decision := `{"campaignId":"` + c.ID + `","recipientId":"` + added["recipientId"].(string) + `"}`
	refused := call(http.MethodPost, "/queue/approve", decision, true, http.StatusPaymentRequired)
	require.Equal(t, "INSUFFICIENT_BALANCE", refused["code"])
	topup := call(http.MethodPost, "/balance/topup", `{"cents":10000,"idempotencyKey":"two-instances-topup"}`, true, http.StatusOK)
	require.NoError(t, env.App.Ledger.CompleteTopup(ctx, topup["sessionId"].(string)))
	sent := call(http.MethodPost, "/queue/approve", decision, true, http.StatusOK)
	require.Equal(t, "balance", sent["fundedBy"])
	same := call(http.MethodPost, "/queue/approve", decision, true, http.StatusOK)
	require.Equal(t, sent["id"], same["id"], "approving again on the other instance returns the same gift")
	balance := call(http.MethodGet, "/balance", "", false, http.StatusOK)
	require.Equal(t, 1_000.0, balance["cents"])
	res, b := send(t, http.MethodGet, urls[step%2]+"/api/v1/balance/ledger", env.OwnerKey, "", nil)
	require.Equal(t, http.StatusOK, res.StatusCode, b)
	var ledger struct {
		Data []map[string]any `json:"data"`
	}
	require.NoError(t, json.Unmarshal([]byte(b), &ledger))
	require.Len(t, ledger.Data, 2)
	require.Equal(t, sent["id"], ledger.Data[0]["sendId"])
	env.RequireLedgerConsistent(t, owner)
	for _, line := range trail {
		t.Log(line)
	}
}

// TestTwoInstancesSeeRevocationsAtOnce: nothing about credentials is kept
// in an instance's memory. A key revoked and a member removed on one
// instance stop working on the other at once (well within a second), and a
// catalog imported by any process is served by both within a second.
func TestTwoInstancesSeeRevocationsAtOnce(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	urls, apps := twoInstances(t, env)
	ctx := context.Background()
	workflow := func(i int, key string, header map[string]string) int {
		res, _ := send(t, http.MethodGet, urls[i]+"/api/v1/workflow", key, "", header)
		return res.StatusCode
	}

	// A key used on B, revoked on A.
	admin := env.AddPerson(t, core.RoleAdmin)
	require.Equal(t, http.StatusOK, workflow(1, admin.Key, nil))
	p, err := apps[0].Connect.Authenticate(ctx, admin.Key)
	require.NoError(t, err)
	require.NoError(t, apps[0].Identity.RevokeAPIKey(ctx, env.WorkspaceID, p.CredentialID))
	start := time.Now()
	require.Equal(t, http.StatusUnauthorized, workflow(1, admin.Key, nil))
	t.Logf("a key revoked on instance A is refused on instance B %v later", time.Since(start).Round(time.Microsecond))

	// A member signed in and with a key on B, removed on A.
	member := env.AddPerson(t, core.RoleMember)
	session, _ := env.SignIn(t, member.Email)
	cookie := map[string]string{"Cookie": identity.SessionCookieName + "=" + session}
	require.Equal(t, http.StatusOK, workflow(1, member.Key, nil))
	require.Equal(t, http.StatusOK, workflow(1, "", cookie))
	require.NoError(t, apps[0].Identity.RemoveMember(ctx, env.WorkspaceID, member.UserID))
	require.Equal(t, http.StatusUnauthorized, workflow(1, member.Key, nil))
	require.Equal(t, http.StatusUnauthorized, workflow(1, "", cookie))

	// A catalog import, by neither instance.
	for _, app := range apps {
		require.Eventually(t, app.Catalog.Listening, 5*time.Second, 10*time.Millisecond)
	}
	_, err = importTwoGifts(ctx, env)
	require.NoError(t, err)
	for i := range urls {
		require.Eventually(t, func() bool {
			res, b := send(t, http.MethodGet, urls[i]+"/api/v1/catalog", "", "", nil)
			var cat struct {
				Data []map[string]any `json:"data"`
			}
			return res.StatusCode == http.StatusOK && json.Unmarshal([]byte(b), &cat) == nil && len(cat.Data) == 2
		}, time.Second, 10*time.Millisecond, "instance %d serves the new catalog", i+1)
	}
}

// importTwoGifts replaces the Env's catalog with two gifts, as `giftwell
// catalog import` in another process would.
func importTwoGifts(ctx context.Context, env *apptest.Env) (int, error) {
	return catalog.ImportCatalog(ctx, env.App.DB, strings.NewReader(`[
  {"id": "desk-lamp", "name": "Desk Lamp", "priceCents": 4500, "shippingCents": 900, "verified": true},
  {"id": "tea-set", "name": "Tea Set", "priceCents": 3900, "shippingCents": 800}
]`))
}
