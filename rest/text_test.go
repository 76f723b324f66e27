package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHostileTextIsRefusedAtTheEdge sends the hardening issue's examples
// and more: NUL characters (\u0000) and bytes that are not UTF-8 in every
// create tool's text fields, in path IDs (%00, %FF) and in query values.
// A field is 400 VALIDATION_ERROR naming it, a path ID 404 NOT_FOUND;
// never a 500, and nothing is written.
func TestHostileTextIsRefusedAtTheEdge(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	key := withKey(h.env.OwnerKey)
	res := h.do(http.MethodPost, "/campaigns", strings.NewReader(`{"name":"Thanks","mode":"always_on","productId":"gourmet-snack-crate","senderName":"S","senderCompany":"A"}`), key, withJSON())
	require.Equal(t, http.StatusCreated, res.Status, "%s", res.Body)
	id := res.data().(jsonObj)["id"].(string)
	settings := h.get("/settings", key).data()

	playbook := func(extra string) string {
		return `{"name":"x","mode":"always_on","productId":"gourmet-snack-crate","senderName":"S","senderCompany":"A"` + extra + `}`
	}
	recipients := `{"recipients":[{"email":"a@example.com"},{"email":"b@example.com"},{"email":"c@example.com"},{"email":"d@example.com","name":"Ida\u0000"}]}`
	nul := "must not contain a NUL character (U+0000)"
	notUTF8 := "must be UTF-8 text"
	for _, tc := range []struct {
		method, path, body string
		field, problem     string // "" field: 404 NOT_FOUND
	}{
		// The examples.
		{"POST", "/campaigns", playbook(`,"description":"x\u0000y"`), "description", nul},
		{"GET", "/campaigns/%00", "", "", ""},
		// Every create tool's text fields.
		{"POST", "/campaigns", `{"name":"x\u0000","mode":"always_on","productId":"gourmet-snack-crate","senderName":"S","senderCompany":"A"}`, "name", nul},
		{"POST", "/campaigns", "{\"name\":\"x\xff\",\"mode\":\"always_on\",\"productId\":\"gourmet-snack-crate\",\"senderName\":\"S\",\"senderCompany\":\"A\"}", "name", notUTF8},
		{"POST", "/campaigns", `{"name":"x","mode":"always_on","productId":"gourmet-snack-crate\u0000","senderName":"S","senderCompany":"A"}`, "productId", nul},
		{"POST", "/campaigns", `{"name":"x","mode":"always_on","productId":"gourmet-snack-crate","senderName":"S\u0000","senderCompany":"A"}`, "senderName", nul},
		{"POST", "/campaigns", `{"name":"x","mode":"always_on","productId":"gourmet-snack-crate","senderName":"S","senderCompany":"A\u0000"}`, "senderCompany", nul},
		{"POST", "/campaigns", playbook(`,"message":"Hi {{firstName}}\u0000"`), "message", nul},
		{"POST", "/campaigns", playbook(`,"idempotencyKey":"key-\u0000-0001"`), "idempotencyKey", nul},
		{"POST", "/campaigns", playbook(`,"customization":{"displayText":"a\u0000"}`), "customization.displayText", nul},
		{"POST", "/campaigns", playbook(`,"customization":{"displayText\u0000":"a"}`), "customization", "has a field name with a NUL character or bytes that are not UTF-8"},
		{"POST", "/campaigns", playbook(`,"attribution":{"externalId":"deal-` + "\xc3\x28" + `"}`), "attribution.externalId", notUTF8},
		{"PATCH", "/campaigns/" + id, `{"message":"Hi\u0000"}`, "message", nul},
		{"POST", "/campaigns/" + id + "/recipients", recipients, "recipients[3].name", nul},
		{"POST", "/campaigns/" + id + "/recipients", `{"recipients":[{"email":"a\u0000@example.com"}]}`, "recipients[0].email", nul},
		{"POST", "/playbooks/" + id + "/people", `{"email":"a@example.com","company":"Acme\u0000"}`, "company", nul},
		{"POST", "/webhooks", `{"url":"https://hooks.example.com/\u0000","events":["all"]}`, "url", nul},
		{"POST", "/webhooks", `{"url":"https://hooks.example.com/","events":["all\u0000"]}`, "events[0]", nul},
		{"PATCH", "/settings", `{"name":"Sam\u0000"}`, "name", nul},
		{"POST", "/balance/topup", `{"cents":2500,"idempotencyKey":"top-up-\u0000-0001"}`, "idempotencyKey", nul},
		{"POST", "/queue/approve", `{"queueItemId":"qi_\u0000"}`, "queueItemId", nul},
		{"POST", "/team/invitations", `{"email":"a@example.com","name":"x\u0000","role":"member"}`, "name", nul},
		// Path IDs.
		{"GET", "/campaigns/%FF", "", "", ""},
		{"GET", "/campaigns/cmp_%00abc/preview", "", "", ""},
		{"PATCH", "/campaigns/%00", `{"message":"Hi"}`, "", ""},
		{"POST", "/campaigns/%FF/recipients", `{"recipients":[{"email":"a@example.com"}]}`, "", ""},
		{"GET", "/sends/%00", "", "", ""},
		{"GET", "/sends/%C3%28/tracking", "", "", ""},
		{"GET", "/catalog/%00", "", "", ""},
		{"DELETE", "/webhooks/%FF", "", "", ""},
		{"DELETE", "/team/invitations/%00", "", "", ""},
		// Query values.
		{"GET", "/sends?campaignId=%FF", "", "campaignId", notUTF8},
		{"GET", "/sends?campaignId=%00", "", "campaignId", nul},
		{"GET", "/events?cursor=%00", "", "cursor", nul},
		{"GET", "/catalog/search?query=mug%FF", "", "query", notUTF8},
		{"GET", "/campaigns/" + id + "/tracking?externalId=%00", "", "externalId", nul},
	} {
		var opts []reqOpt
		if tc.body != "" {
			opts = append(opts, withJSON())
		}
		res := h.do(tc.method, tc.path, strings.NewReader(tc.body), append(opts, key)...)
		name := tc.method + " " + tc.path + " " + tc.body
		if tc.field == "" {
			require.Equal(t, http.StatusNotFound, res.Status, "%s: %s", name, res.Body)
			require.Equal(t, "NOT_FOUND", res.code(), name)
			continue
		}
		require.Equal(t, http.StatusBadRequest, res.Status, "%s: %s", name, res.Body)
		require.Equal(t, "VALIDATION_ERROR", res.code(), name)
		require.Equal(t, tc.field+": "+tc.problem, res.message(), name)
	}

	// Nothing was written.
	list := h.get("/campaigns", key).data().([]any)
	require.Len(t, list, 1)
	got := h.get("/campaigns/"+id, key).data().(jsonObj)
	require.EqualValues(t, 0, got["recipientCount"])
	require.Empty(t, got["message"])
	require.Empty(t, h.get("/webhooks", key).data())
	require.Equal(t, settings, h.get("/settings", key).data())
	require.NotContains(t, h.logs.String(), "level=ERROR")
}
