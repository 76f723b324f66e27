package rest_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/connect"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/internal/apptest"
)

// connectionBearer mints a real OAuth access token of a grant of the env's
// owner with gifts:read and, when links, gifts:links:read, as the
// authorization server stores it (only its hash).
func connectionBearer(t *testing.T, env *apptest.Env, links bool) string {
	t.Helper()
	ctx := t.Context()
	client, err := env.App.Connect.RegisterOAuthClient(ctx, connect.OAuthClientRegistration{
		RedirectURIs: []string{"http://127.0.0.1/cb"}, TokenEndpointAuthMethod: connect.AuthMethodNone,
	}, "192.0.2.10")
	require.NoError(t, err)
	_, owner := env.SignIn(t, env.OwnerEmail)
	consent := connect.OAuthConsent{ClientID: client.ClientID, Resources: []string{env.App.Config.MCPURL()},
		Requested: []string{"gifts:read", "gifts:links:read"}}
	if links {
		consent.Ticked = []string{"gifts:links:read"}
	}
	g, err := env.App.Connect.CreateOAuthGrant(ctx, owner, consent)
	require.NoError(t, err)
	require.Equal(t, links, slices.Contains(g.Scopes, core.ScopeLinks))
	token := connect.OAuthAccessTokenPrefix + core.RandomHex(32)
	require.NoError(t, env.App.Connect.CreateOAuthToken(ctx, connect.OAuthToken{
		Kind: connect.OAuthKindAccess, Signature: connect.HashOAuthSecret(token), RequestID: "req-" + core.RandomHex(4),
		GrantID: g.ID, ClientID: g.ClientID, RequestedAt: env.Clock.Now(),
		Scopes: []string{"gifts:read"}, GrantedScopes: []string{"gifts:read"}, Session: []byte(`{"grant_id":"` + g.ID + `"}`),
	}))
	return token
}

// TestGiftLinkRecordsOverREST: GET /campaigns/{id}/distribution with a key
// and with sign-in connections, comma-separated filters, paging and
// refusals naming their field.
func TestGiftLinkRecordsOverREST(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	known := campaign.RecipientInput{Name: "Ana Alvarez", SourceSystem: "crm", ExternalID: "ext-ana", Email: "ana@example.com",
		AddressMode: gift.AddressKnown, Address: "1 Main St", City: "Austin", State: "TX", Zip: "78701"}
	cid, gifts := giftsFor(t, h.env, known,
		campaign.RecipientInput{Name: "Ben Brown", Email: "ben@example.com", Company: "Bolt"},
		campaign.RecipientInput{Name: "Cy Chan", Email: "cy@example.com"})
	path := "/campaigns/" + cid + "/distribution"
	key := withKey(h.env.OwnerKey)

	res := h.get(path, key)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	data := res.data().(jsonObj)
	require.EqualValues(t, 1, data["version"])
	require.Equal(t, jsonObj{"total": 3.0, "ready": 2.0, "unavailable": 1.0}, data["counts"])
	require.Equal(t, []any{}, data["sourceImports"])
	require.Nil(t, data["nextCursor"])
	recs := data["records"].([]any)
	require.Len(t, recs, 3)
	ana, ben := recs[0].(jsonObj), recs[1].(jsonObj)
	require.Equal(t, []any{"Ana Alvarez", gifts[0], "unavailable", "address_known", ""},
		[]any{ana["name"], ana["gift_id"], ana["availability"], ana["availability_reason"], ana["gift_link"]})
	require.Equal(t, []any{"Ben Brown", "Bolt", gifts[1], "ready", ""},
		[]any{ben["name"], ben["company"], ben["gift_id"], ben["availability"], ben["availability_reason"]})
	require.True(t, strings.HasPrefix(ben["gift_link"].(string), h.site+"/g/"), ben["gift_link"])
	require.Equal(t, "test", ben["mode"])

	// Comma-separated lists, search and availability.
	res = h.get(path+"?giftIds="+gifts[2]+","+gifts[0]+"&availability=ready", key)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	recs = res.data().(jsonObj)["records"].([]any)
	require.Len(t, recs, 1)
	require.Equal(t, gifts[2], recs[0].(jsonObj)["gift_id"])
	res = h.get(path+"?search="+url.QueryEscape("BOLT"), key)
	require.Equal(t, jsonObj{"total": 1.0, "ready": 1.0, "unavailable": 0.0}, res.data().(jsonObj)["counts"])
	ids := []string{ana["recipient_id"].(string), ben["recipient_id"].(string)}
	res = h.get(path+"?recipientIds="+strings.Join(ids, ","), key)
	require.Len(t, res.data().(jsonObj)["records"], 2)

	// Paging with the cursor.
	var got []string
	q := url.Values{"limit": {"2"}}
	for {
		res = h.get(path+"?"+q.Encode(), key)
		require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
		for _, r := range res.data().(jsonObj)["records"].([]any) {
			got = append(got, r.(jsonObj)["gift_id"].(string))
		}
		next, _ := res.data().(jsonObj)["nextCursor"].(string)
		if next == "" {
			break
		}
		q.Set("cursor", next)
	}
	require.Equal(t, gifts, got)

	// Refusals name their field.
	many := make([]string, 501)
	for i := range many {
		many[i] = core.NewID("send_")
	}
	for query, field := range map[string]string{
		"limit=0":                             "limit",
		"limit=101":                           "limit",
		"limit=ten":                           "limit",
		"availability=maybe":                  "availability",
		"recipientIds=recipient_1,send_1":     "recipientIds[1]",
		"giftIds=" + strings.Join(many, ","):  "giftIds",
		"cursor=garbage":                      "cursor",
		"search=" + strings.Repeat("x", 201):  "search",
		"search=" + url.QueryEscape("a\x01b"): "search",
		"colour=red":                          "colour",
	} {
		res = h.get(path+"?"+query, key)
		require.Equal(t, http.StatusBadRequest, res.Status, "%s: %s", query, res.Body)
		require.Equal(t, "VALIDATION_ERROR", res.code(), query)
		require.Contains(t, res.message(), field, query)
	}

	// Another workspace's campaign is NOT_FOUND.
	ws := apptest.NewWorkspace(t, h.env.App, apptest.WorkspaceOptions{})
	res = h.get(path, withKey(ws.OwnerKey))
	require.Equal(t, http.StatusNotFound, res.Status)
	require.Equal(t, "NOT_FOUND", res.code())

	// A sign-in connection with gifts:links:read reads the records, and no
	// other REST route; one without the scope is refused here.
	links := withKey(connectionBearer(t, h.env, true))
	res = h.get(path, links)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, jsonObj{"total": 3.0, "ready": 2.0, "unavailable": 1.0}, res.data().(jsonObj)["counts"])
	for _, other := range []string{"/campaigns", "/campaigns/" + cid, "/sends/" + gifts[1], "/campaigns/" + cid + "/results", "/events", "/workflow"} {
		res = h.get(other, links)
		require.Equal(t, http.StatusUnauthorized, res.Status, other)
		require.Equal(t, "AUTH_REQUIRED", res.code(), other)
	}
	res = h.get(path, withKey(connectionBearer(t, h.env, false)))
	require.Equal(t, http.StatusForbidden, res.Status, "%s", res.Body)
	require.Equal(t, "INSUFFICIENT_SCOPE", res.code())
}
