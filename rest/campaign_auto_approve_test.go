package rest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/apptest"
)

// autoApproveHarness is a harness with a signed-in owner, admin and member.
type autoApproveHarness struct {
	*harness
	owner, admin, member string // session tokens
	adminID              string
	memberKey            string
}

func newAutoApproveHarness(t *testing.T) *autoApproveHarness {
	h := newHarness(t)
	admin := h.env.AddPerson(t, core.RoleAdmin)
	member := h.env.AddPerson(t, core.RoleMember)
	owner, _ := h.env.SignIn(t, h.env.OwnerEmail)
	adminToken, _ := h.env.SignIn(t, admin.Email)
	memberToken, _ := h.env.SignIn(t, member.Email)
	return &autoApproveHarness{harness: h, owner: owner, admin: adminToken, member: memberToken, adminID: admin.UserID, memberKey: member.Key}
}

// create makes a campaign with the owner's key and returns its ID.
func (h *autoApproveHarness) create(t *testing.T, body jsonObj) string {
	t.Helper()
	res := h.do(http.MethodPost, "/campaigns", jsonBody(t, body), withJSON(), withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusCreated, res.Status, "%s", res.Body)
	return res.data().(jsonObj)["id"].(string)
}

func (h *autoApproveHarness) playbook(t *testing.T) string {
	t.Helper()
	return h.create(t, jsonObj{"name": "Auto", "mode": "always_on", "productId": "gourmet-snack-crate", "senderName": "S", "senderCompany": "A"})
}

// set posts the settings as a signed-in person (token) or with opts.
func (h *autoApproveHarness) set(t *testing.T, id, body string, opts ...reqOpt) response {
	t.Helper()
	return h.do(http.MethodPost, "/campaigns/"+id+"/auto-approve", strings.NewReader(body), append([]reqOpt{withJSON()}, opts...)...)
}

func (h *autoApproveHarness) as(token string) []reqOpt { return signedIn(h.harness, token) }

func requireRefused(t *testing.T, res response, status int, code, field string) {
	t.Helper()
	require.Equal(t, status, res.Status, "%s", res.Body)
	require.Equal(t, code, res.code(), "%s", res.Body)
	if field != "" {
		require.True(t, strings.HasPrefix(res.message(), field+": "), res.message())
	}
}

func TestAutoApproveOverREST(t *testing.T) {
	t.Parallel()
	h := newAutoApproveHarness(t)
	id := h.playbook(t)

	// Schema refusals, named by field.
	for body, field := range map[string]string{
		`{}`: "enabled",
		`{"enabled":true,"perGiftMaxCents":99,"monthlyBudgetCents":50000}`:       "perGiftMaxCents",
		`{"enabled":true,"perGiftMaxCents":100001,"monthlyBudgetCents":50000}`:   "perGiftMaxCents",
		`{"enabled":true,"perGiftMaxCents":1000,"monthlyBudgetCents":99}`:        "monthlyBudgetCents",
		`{"enabled":true,"perGiftMaxCents":1000,"monthlyBudgetCents":100000001}`: "monthlyBudgetCents",
		`{"enabled":true,"perGiftMaxCents":null,"monthlyBudgetCents":50000}`:     "perGiftMaxCents",
		`{"enabled":"yes"}`: "enabled",
		`{"enabled":true,"perGiftMaxCents":1000,"monthlyBudgetCents":5000,"x":1}`: "x",
		`{"enabled":true,"perGiftMaxCents":1000,"expectedPolicyVersion":0}`:       "expectedPolicyVersion",
	} {
		res := h.set(t, id, body, h.as(h.owner)...)
		require.Equal(t, http.StatusBadRequest, res.Status, "%s: %s", body, res.Body)
		require.Equal(t, "VALIDATION_ERROR", res.code(), body)
		require.Contains(t, res.message(), field, body)
	}

	// The rules core applies.
	res := h.set(t, id, `{"enabled":true,"perGiftMaxCents":10000}`, h.as(h.owner)...)
	requireRefused(t, res, http.StatusBadRequest, "MONTHLY_BUDGET_REQUIRED", "monthlyBudgetCents")
	res = h.set(t, id, `{"enabled":true,"monthlyBudgetCents":50000}`, h.as(h.owner)...)
	requireRefused(t, res, http.StatusBadRequest, "VALIDATION_ERROR", "perGiftMaxCents")
	res = h.set(t, id, `{"enabled":true,"perGiftMaxCents":50001,"monthlyBudgetCents":50000}`, h.as(h.owner)...)
	requireRefused(t, res, http.StatusBadRequest, "VALIDATION_ERROR", "perGiftMaxCents")
	res = h.set(t, id, `{"enabled":true,"perGiftMaxCents":10000,"monthlyBudgetCents":50000,"expectedPolicyVersion":7}`, h.as(h.owner)...)
	requireRefused(t, res, http.StatusConflict, "POLICY_CHANGED", "expectedPolicyVersion")

	// Keys get the review page; connections are not let onto this route at all.
	res = h.set(t, id, `{"enabled":true,"perGiftMaxCents":10000,"monthlyBudgetCents":50000}`, withKey(h.env.OwnerKey))
	requireRefused(t, res, http.StatusForbidden, "HUMAN_APPROVAL_REQUIRED", "")
	require.Equal(t, h.site+"/campaigns/"+id+"?review=1", res.JSON["url"])
	res = h.set(t, id, `{"enabled":false}`, withKey(h.memberKey))
	requireRefused(t, res, http.StatusForbidden, "HUMAN_APPROVAL_REQUIRED", "")
	res = h.set(t, id, `{"enabled":false}`, withKey(connectionToken))
	requireRefused(t, res, http.StatusUnauthorized, "AUTH_REQUIRED", "")
	res = h.set(t, id, `{"enabled":true,"perGiftMaxCents":10000,"monthlyBudgetCents":50000}`, h.as(h.member)...)
	requireRefused(t, res, http.StatusForbidden, "TEAM_MANAGER_REQUIRED", "")

	// The owner turns it on.
	res = h.set(t, id, `{"enabled":true,"perGiftMaxCents":10000,"monthlyBudgetCents":50000,"expectedPolicyVersion":1}`, h.as(h.owner)...)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	c := res.data().(jsonObj)
	require.EqualValues(t, 2, c["policyVersion"])
	require.EqualValues(t, 50000, c["monthlyBudgetCents"])
	require.Equal(t, jsonObj{"enabled": true, "perGiftMaxCents": 10000.0, "enabledBy": h.env.OwnerID, "enabledAt": apptest.Epoch.Format("2006-01-02T15:04:05Z")}, c["autoApprove"])
	res = h.get("/campaigns/"+id, withKey(h.env.OwnerKey))
	require.Equal(t, c["autoApprove"], res.data().(jsonObj)["autoApprove"], "keys read it")

	// The admin raises it; the member may not, but may lower it and turn it off.
	res = h.set(t, id, `{"enabled":true,"perGiftMaxCents":20000}`, h.as(h.admin)...)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.EqualValues(t, 3, res.data().(jsonObj)["policyVersion"])
	res = h.set(t, id, `{"enabled":true,"monthlyBudgetCents":60000}`, h.as(h.member)...)
	requireRefused(t, res, http.StatusForbidden, "TEAM_MANAGER_REQUIRED", "")
	res = h.set(t, id, `{"enabled":true,"perGiftMaxCents":20001}`, h.as(h.member)...)
	requireRefused(t, res, http.StatusForbidden, "TEAM_MANAGER_REQUIRED", "")
	res = h.set(t, id, `{"enabled":true,"perGiftMaxCents":5000,"monthlyBudgetCents":40000,"expectedPolicyVersion":3}`, h.as(h.member)...)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	res = h.set(t, id, `{"enabled":false}`, h.as(h.member)...)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	c = res.data().(jsonObj)
	require.EqualValues(t, 5, c["policyVersion"])
	require.EqualValues(t, 40000, c["monthlyBudgetCents"])
	require.Equal(t, jsonObj{"enabled": false, "perGiftMaxCents": 5000.0, "enabledBy": h.env.OwnerID, "enabledAt": apptest.Epoch.Format("2006-01-02T15:04:05Z")}, c["autoApprove"])

	// A batch is not a playbook; a completed playbook refuses.
	batch := h.create(t, jsonObj{"name": "B", "productId": "gourmet-snack-crate", "senderName": "S", "senderCompany": "A", "budgetCents": 90000, "perPersonCents": 9000, "maxSends": 10})
	res = h.set(t, batch, `{"enabled":true,"perGiftMaxCents":10000,"monthlyBudgetCents":50000}`, h.as(h.owner)...)
	requireRefused(t, res, http.StatusConflict, "NOT_ALWAYS_ON", "")
	res = h.do(http.MethodPatch, "/campaigns/"+id, strings.NewReader(`{"status":"completed","expectedPolicyVersion":5}`), withJSON(), withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	res = h.set(t, id, `{"enabled":false}`, h.as(h.owner)...)
	requireRefused(t, res, http.StatusConflict, "CAMPAIGN_COMPLETED", "")
	res = h.set(t, "cmp_nope", `{"enabled":false}`, h.as(h.owner)...)
	requireRefused(t, res, http.StatusNotFound, "NOT_FOUND", "id")
}

// TestAutoApproveOverRESTConcurrent: two writers on one version; exactly one lands.
func TestAutoApproveOverRESTConcurrent(t *testing.T) {
	t.Parallel()
	h := newAutoApproveHarness(t)
	id := h.playbook(t)
	bodies := []string{
		`{"enabled":true,"perGiftMaxCents":1000,"monthlyBudgetCents":50000,"expectedPolicyVersion":1}`,
		`{"enabled":true,"perGiftMaxCents":2000,"monthlyBudgetCents":50000,"expectedPolicyVersion":1}`,
	}
	tokens := []string{h.owner, h.admin}
	statuses := make([]int, 2)
	codes := make([]string, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range bodies {
		wg.Go(func() {
			req, err := http.NewRequest(http.MethodPost, h.base+"/campaigns/"+id+"/auto-approve", strings.NewReader(bodies[i]))
			if err != nil {
				errs[i] = err
				return
			}
			for _, o := range append([]reqOpt{withJSON()}, h.as(tokens[i])...) {
				o(req)
			}
			res, err := h.srv.Client().Do(req)
			if err != nil {
				errs[i] = err
				return
			}
			defer res.Body.Close()
			var body struct {
				Code string `json:"code"`
			}
			errs[i] = json.NewDecoder(res.Body).Decode(&body)
			statuses[i], codes[i] = res.StatusCode, body.Code
		})
	}
	wg.Wait()
	require.Equal(t, []error{nil, nil}, errs)
	require.ElementsMatch(t, []int{http.StatusOK, http.StatusConflict}, statuses, "exactly one lands")
	winner := 0
	if statuses[0] != http.StatusOK {
		winner = 1
	}
	require.Equal(t, "POLICY_CHANGED", codes[1-winner])
	res := h.get("/campaigns/"+id, withKey(h.env.OwnerKey))
	c := res.data().(jsonObj)
	require.EqualValues(t, 2, c["policyVersion"])
	rule := c["autoApprove"].(jsonObj)
	require.EqualValues(t, 1000*(winner+1), rule["perGiftMaxCents"])
	require.Equal(t, []string{h.env.OwnerID, h.adminID}[winner], rule["enabledBy"])

	// The loser's retry on the same version is POLICY_CHANGED.
	res = h.set(t, id, bodies[1-winner], h.as(tokens[1-winner])...)
	requireRefused(t, res, http.StatusConflict, "POLICY_CHANGED", "expectedPolicyVersion")
}
