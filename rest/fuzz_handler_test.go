package rest_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/rest"
	"github.com/giftwell/giftwell/tools"
)

// FuzzHandler sends arbitrary methods, paths, headers and bodies to the
// whole handler over a real database: it never panics, every response is
// JSON (the {data} envelope on success, the error envelope otherwise) and
// its status is one the request rules, auth and routing produce. The test
// tool that fails on purpose is left out, so a 500 is a finding: hostile
// text (a NUL, bytes that are not UTF-8) anywhere is refused at the edge,
// never a database error.
func FuzzHandler(f *testing.F) {
	env := apptest.New(f)
	list := slices.DeleteFunc(append(tools.All(env.App), testTools()...), func(t tools.Tool) bool { return t.Name == "fail_test" })
	h := rest.NewHandler(rest.Config{App: env.App, Tools: list, Authenticate: connectionAware(env)})

	seeds := []struct {
		method, path, contentType, auth, origin, body string
		chunked                                       bool
	}{
		{"GET", "/catalog", "", "", "", "", false},
		{"GET", "/session", "", "owner", "", "", false},
		{"GET", "/workflow", "", "owner", "site", "", false},
		{"GET", "/workflow", "", "connection", "", "", false},
		{"GET", "/catalog/search?budgetCents=5000&recipientCount=10", "", "owner", "", "", false},
		{"GET", "/catalog/search?limit=abc&colour=red", "", "owner", "", "", false},
		{"GET", "/catalog/nope", "", "owner", "", "", false},
		{"POST", "/test-notes/n1", "application/json", "owner", "", `{"note":"hi","count":2}`, false},
		{"POST", "/test-notes/n1", "text/plain", "owner", "", `{"note":"hi"}`, true},
		{"POST", "/test-notes/n1", "application/json", "owner", "", `{"note":`, false},
		{"POST", "/test-notes/n1?count=1", "application/json", "owner", "", `[1]`, true},
		{"POST", "/test-items/i1/ping", "text/plain", "owner", "", `garbage`, false},
		{"DELETE", "/test-things/a%2Fb?reason=x", "", "owner", "", "", false},
		{"GET", "/test-things?ids=a,b&counts=1,x&filter=%7B%7D", "", "owner", "", "", false},
		{"GET", "/campaigns/c1/distribution", "", "connection", "", "", false},
		{"PATCH", "/catalog", "application/json", "", "https://evil.example", `{}`, false},
		{"PURGE", "/nowhere", "", "Bearer x y", "", "", false},
		{"OPTIONS", "/session", "", "", "null", "", false},
		{"GET", "/openapi.json", "", "", "", "", false},
		// Hostile text: a NUL or bytes that are not UTF-8 in bodies, path
		// IDs and query values of real tools.
		{"POST", "/campaigns", "application/json", "owner", "", `{"name":"x","mode":"always_on","productId":"gourmet-snack-crate","senderName":"S","senderCompany":"A","description":"x\u0000y"}`, false},
		{"POST", "/campaigns", "application/json", "owner", "", "{\"name\":\"x\xff\",\"mode\":\"always_on\",\"productId\":\"gourmet-snack-crate\",\"senderName\":\"S\",\"senderCompany\":\"A\"}", false},
		{"POST", "/campaigns", "application/json", "owner", "", `{"name":"x","mode":"always_on","productId":"gourmet-snack-crate","senderName":"S","senderCompany":"A","customization":{"k\u0000":"v"}}`, false},
		{"GET", "/campaigns/%00", "", "owner", "", "", false},
		{"GET", "/campaigns/%FF", "", "owner", "", "", false},
		{"PATCH", "/campaigns/%C3%28", "application/json", "owner", "", `{"message":"hi"}`, false},
		{"POST", "/campaigns/cmp_x/recipients", "application/json", "owner", "", `{"recipients":[{"email":"a@example.com","name":"\u0000"}]}`, false},
		{"GET", "/sends?campaignId=%FF", "", "owner", "", "", false},
		{"GET", "/events?cursor=%00", "", "owner", "", "", false},
		{"GET", "/catalog/search?query=%FF%00", "", "owner", "", "", false},
		{"DELETE", "/webhooks/%FF", "", "owner", "", "", false},
		{"PATCH", "/settings", "application/json", "owner", "", `{"name":"\u0000"}`, false},
		{"POST", "/queue/approve", "application/json", "owner", "", `{"queueItemId":"\u0000"}`, false},
		{"GET", "/test-things?ids=a%00", "", "owner", "", "", false},
		{"POST", "/test-notes/%00", "application/json", "owner", "", `{"note":"hi"}`, false},
	}
	for _, s := range seeds {
		f.Add(s.method, s.path, s.contentType, s.auth, s.origin, []byte(s.body), s.chunked)
	}
	allowed := []int{200, 201, 400, 401, 403, 404, 405, 413, 415}

	f.Fuzz(func(t *testing.T, method, path, contentType, auth, origin string, body []byte, chunked bool) {
		req, err := http.NewRequest(method, "http://giftwell.test/"+strings.TrimPrefix(path, "/"), bytes.NewReader(body))
		if err != nil || !validHeader(contentType) || !validHeader(auth) || !validHeader(origin) {
			t.Skip()
		}
		if chunked && len(body) > 0 {
			req.ContentLength = -1
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		switch auth {
		case "":
		case "owner":
			req.Header.Set("Authorization", "Bearer "+env.OwnerKey)
		case "connection":
			req.Header.Set("Authorization", "Bearer "+connectionToken)
		default:
			req.Header.Set("Authorization", auth)
		}
		switch origin {
		case "":
		case "site":
			req.Header.Set("Origin", env.SiteURL)
		default:
			req.Header.Set("Origin", origin)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)

		require.Contains(t, allowed, rec.Code, "%s %s -> %d %s", method, path, rec.Code, rec.Body)
		require.Equal(t, "application/json", rec.Header().Get("Content-Type"))
		if strings.HasPrefix(req.URL.Path, "/openapi") && rec.Code == http.StatusOK {
			var doc map[string]any
			require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &doc))
			require.Contains(t, doc, "openapi")
			return
		}
		checkEnvelope(t, rec.Code, rec.Body.Bytes())
	})
}

// validHeader reports whether net/http would send v as a header value.
func validHeader(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}
