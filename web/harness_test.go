package web_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/internal/testdb"
	"github.com/giftwell/giftwell/rest"
	"github.com/giftwell/giftwell/web"
)

// TestMain stops the package's throwaway PostgreSQL cluster after the tests.
func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// harness is the web app on a real listener over a real database, with the
// site URL set to the listener's address.
type harness struct {
	t    *testing.T
	env  *apptest.Env
	site string
	logs *apptest.LogBuffer
}

func newHarness(t *testing.T, opts ...apptest.Option) *harness {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	site := "http://" + srv.Listener.Addr().String()
	env := apptest.New(t, append([]apptest.Option{apptest.WithSiteURL(site)}, opts...)...)
	// Sessions expire relative to the app's clock; browsers and cookie jars
	// compare with the real time, so the app's clock starts now.
	env.Clock.Set(time.Now())
	logs := &apptest.LogBuffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	// The catalog's pictures are served beside the web app, as the binary
	// mounts them, so that pages show them.
	mux := http.NewServeMux()
	mux.Handle(catalog.ImagePathPrefix, rest.CatalogImages(rest.Config{App: env.App, Log: log}))
	mux.Handle("/", web.NewHandler(web.Config{App: env.App, Log: log}))
	srv.Config.Handler = mux
	srv.Start()
	t.Cleanup(srv.Close)
	return &harness{t: t, env: env, site: site, logs: logs}
}

// client is one browser: a cookie jar, redirects not followed, and the
// Sec-Fetch-Site header a browser sends for a form on the same site.
type client struct {
	h    *harness
	http *http.Client
}

func (h *harness) client() *client {
	jar, err := cookiejar.New(nil)
	require.NoError(h.t, err)
	return &client{h: h, http: &http.Client{
		Jar:           jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// response is a read response.
type response struct {
	*http.Response
	Body string
}

func (c *client) do(req *http.Request) response {
	c.h.t.Helper()
	res, err := c.http.Do(req)
	require.NoError(c.h.t, err)
	b, err := io.ReadAll(res.Body)
	require.NoError(c.h.t, err)
	require.NoError(c.h.t, res.Body.Close())
	return response{Response: res, Body: string(b)}
}

func (c *client) get(path string) response {
	c.h.t.Helper()
	req, err := http.NewRequest(http.MethodGet, c.h.site+path, nil)
	require.NoError(c.h.t, err)
	req.Header.Set("Sec-Fetch-Site", "none")
	return c.do(req)
}

// post sends a form as a browser on the site itself does; headers are
// set after, so a test can make it cross-site.
func (c *client) post(path string, form url.Values, headers ...string) response {
	c.h.t.Helper()
	req, err := http.NewRequest(http.MethodPost, c.h.site+path, strings.NewReader(form.Encode()))
	require.NoError(c.h.t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("Origin", c.h.site)
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	return c.do(req)
}

// signIn signs the client in and checks that it worked.
func (c *client) signIn(email string) {
	c.h.t.Helper()
	res := c.post("/login", url.Values{"email": {email}, "password": {apptest.Password}})
	require.Equal(c.h.t, http.StatusSeeOther, res.StatusCode, res.Body)
	require.NotEmpty(c.h.t, c.sessionToken())
}

// sessionToken is the session cookie the jar holds, or "".
func (c *client) sessionToken() string {
	u, _ := url.Parse(c.h.site)
	for _, ck := range c.http.Jar.Cookies(u) {
		if ck.Name == identity.SessionCookieName {
			return ck.Value
		}
	}
	return ""
}

// principal is who the client's session acts as.
func (c *client) principal() core.Principal {
	c.h.t.Helper()
	p, err := c.h.env.App.Identity.AuthenticateSession(context.Background(), c.sessionToken())
	require.NoError(c.h.t, err)
	return p
}

// ownerPrincipal is the workspace owner acting through a session of their own.
func (h *harness) ownerPrincipal() core.Principal {
	h.t.Helper()
	s, err := h.env.App.Identity.SignIn(context.Background(), identity.SignInParams{Email: h.env.OwnerEmail, Password: apptest.Password})
	require.NoError(h.t, err)
	p, err := h.env.App.Identity.AuthenticateSession(context.Background(), s.Token)
	require.NoError(h.t, err)
	return p
}

// keyCount is the number of live keys in the workspace.
func (h *harness) keyCount() int {
	h.t.Helper()
	keys, err := h.env.App.Identity.ListAPIKeys(context.Background(), h.ownerPrincipal())
	require.NoError(h.t, err)
	return len(keys)
}

// sessionCookie finds the Set-Cookie of the session in a response.
func sessionCookie(res response) *http.Cookie {
	for _, ck := range res.Cookies() {
		if ck.Name == identity.SessionCookieName {
			return ck
		}
	}
	return nil
}
