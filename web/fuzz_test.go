package web_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/web"
)

// fuzzRoutes are the web app's routes a fuzzed request goes to; {id} is
// the fuzzed path value, escaped. Logging out and removing a member are
// left out so that the session lasts the run.
var fuzzRoutes = []string{
	"POST /settings/keys", "POST /team/invitations", "POST /settings", "POST /settings/webhooks",
	"POST /balance/topup", "POST /queue/approve", "POST /queue/skip", "POST /queue/unskip",
	"POST /workspace/switch", "POST /campaigns/{id}/status", "POST /campaigns/{id}/auto-approve",
	"POST /team/invitations/{id}/revoke", "POST /team/members/{id}/role", "POST /settings/keys/{id}/revoke",
	"POST /settings/webhooks/{id}/remove", "POST /settings/webhooks/{id}/deliveries/{id}/retry",
	"POST /sandbox/pay/{id}", "POST /login", "POST /invite/{id}", "POST /g/{id}", "POST /g/{id}/decline",
	"GET /campaigns/{id}", "GET /gifts/{id}", "GET /settings/webhooks/{id}", "GET /sandbox/pay/{id}",
	"GET /invite/{id}", "GET /g/{id}", "GET /campaigns", "GET /queue", "GET /login", "GET /balance",
}

// FuzzWebForm sends form posts (and page reads, the body then being the
// query) with arbitrary path values and form bodies through the real web
// handler, signed in as the owner over a real database. Whatever the
// bytes, a NUL or bytes that are not UTF-8 among them, the answer is never
// a 5xx and nothing is logged as an internal error.
func FuzzWebForm(f *testing.F) {
	env := apptest.New(f, apptest.WithSiteURL("http://giftwell.test"))
	logs := &apptest.LogBuffer{}
	h := web.NewHandler(web.Config{App: env.App, Log: slog.New(slog.NewTextHandler(logs, nil))})
	token, _ := env.SignIn(f, env.OwnerEmail)
	seeds := []struct {
		route int
		id    string
		body  string
	}{
		{0, "", "name=Zapier"},
		{0, "", "name=key%00one"},
		{0, "", "name=key%FFone"},
		{1, "", "email=a%00%40example.com&role=member"},
		{2, "", "senderName=Sam%00&senderCompany=Acme"},
		{3, "", "url=https%3A%2F%2Fexample.com%2F%FF&events=all"},
		{4, "", "amount=25%2C00"},
		{4, "", "amount=25%00"},
		{5, "", "queueItemId=%00"},
		{8, "", "workspaceId=ws_%FF"},
		{9, "\x00", "status=paused"},
		{9, "cmp_\xff", "status=active"},
		{10, "cmp_x", "enabled=on&perGiftMaxCents=%00"},
		{12, "usr_\x00", "role=admin"},
		{15, "whk_\xfe", "source=gift%00"},
		{17, "", "email=a%40example.com%00&password=x"},
		{18, "inv_\x00", "email=a%40example.com&name=Ann%00&password=correct+horse"},
		{19, "\xff", "line1=1+Main%00"},
		{21, "%00", ""},
		{21, "\xff", "review=1"},
		{22, "\x00", ""},
		{27, "", "status=%00&q=%FF"},
		{28, "", "%FF=1"},
		{29, "", "next=%00"},
	}
	for _, s := range seeds {
		f.Add(uint8(s.route), s.id, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, route uint8, id string, body []byte) {
		method, path, _ := strings.Cut(fuzzRoutes[int(route)%len(fuzzRoutes)], " ")
		path = strings.ReplaceAll(path, "{id}", url.PathEscape(id))
		var r *http.Request
		if method == http.MethodGet {
			r = httptest.NewRequest(method, "http://giftwell.test"+path, nil)
			r.URL.RawQuery = rawQuery(body)
		} else {
			r = httptest.NewRequest(method, "http://giftwell.test"+path, bytes.NewReader(body))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.Header.Set("Origin", "http://giftwell.test")
			r.Header.Set("Sec-Fetch-Site", "same-origin")
		}
		r.AddCookie(&http.Cookie{Name: identity.SessionCookieName, Value: token})
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code >= 500 {
			t.Fatalf("%s %s %q: %d %s", method, path, body, w.Code, w.Body)
		}
		if strings.Contains(logs.String(), "level=ERROR") {
			t.Fatalf("%s %s %q: an internal error was logged: %s", method, path, body, logs.String())
		}
	})
}

// rawQuery is body as a raw query string: its bytes as they are, but for
// those a URL cannot carry (controls, space, non-ASCII, #), percent-encoded
// as a browser sends them; so %00 stays %00 and a raw 0xFF becomes %FF.
func rawQuery(body []byte) string {
	var b strings.Builder
	for _, c := range body {
		if c <= ' ' || c >= 0x7f || c == '#' {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
