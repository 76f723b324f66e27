package web_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestHomeShowsTheWorkspaceAndHowToStart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.client()
	c.signIn(h.env.OwnerEmail)
	res := c.get("/")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, `<span class="badge badge-test">Test mode</span>`)
	require.Contains(t, res.Body, "What waits for you")
	require.Contains(t, res.Body, "<code>"+h.site+"/mcp</code>")
	require.Contains(t, res.Body, "<code>"+h.site+"/api/v1</code>")
	require.Contains(t, res.Body, `<a class="skip-link" href="#main">`)
	require.NotContains(t, res.Body, `action="/workspace/switch"`, "one workspace: no switcher")
}

func TestSwitchWorkspace(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	other := apptest.NewWorkspace(t, h.env.App, apptest.WorkspaceOptions{Name: "Second Shop", OwnerEmail: h.env.OwnerEmail})
	c := h.client()
	c.signIn(h.env.OwnerEmail)
	res := c.get("/")
	require.Contains(t, res.Body, `<option value="`+other.WorkspaceID+`">Second Shop</option>`)

	res = c.post("/workspace/switch", url.Values{"workspace": {other.WorkspaceID}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	require.Equal(t, other.WorkspaceID, c.principal().WorkspaceID)
	res = c.get("/")
	require.Contains(t, res.Body, `<h1>Second Shop</h1>`)

	stranger := apptest.NewWorkspace(t, h.env.App, apptest.WorkspaceOptions{})
	res = c.post("/workspace/switch", url.Values{"workspace": {stranger.WorkspaceID}})
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	require.Equal(t, other.WorkspaceID, c.principal().WorkspaceID, "nothing changed")
}

func TestSettingsSaveForManagersReadOnlyForMembers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	res := owner.post("/settings", url.Values{
		"company": {"Acme Gifts"}, "name": {"Ada Lovelace"}, "meetingUrl": {"https://cal.example.com/ada"},
		"website": {"https://acme.example.com"}, "brandColor": {"#1A7F5A"},
	})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	require.Equal(t, "/settings?done=settings-saved", res.Header.Get("Location"))
	res = owner.get("/settings?done=settings-saved")
	require.Contains(t, res.Body, "The settings were saved.")
	require.Contains(t, res.Body, `value="Acme Gifts"`)
	require.Contains(t, res.Body, `value="#1a7f5a"`)

	res = owner.post("/settings", url.Values{"website": {"http://insecure.example.com"}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, res.Body, `id="website-error"`)
	require.Contains(t, res.Body, `value="http://insecure.example.com"`, "the submitted value is kept")

	// Every problem at once: the summary links each field, each is marked.
	res = owner.post("/settings", url.Values{"website": {"http://insecure.example.com"}, "brandColor": {"green"}, "company": {""}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	for _, f := range []string{"company", "website", "brandColor"} {
		require.Contains(t, res.Body, `id="`+f+`-error"`, f)
		require.Contains(t, res.Body, `<a href="#`+f+`">`, f)
	}
	require.Equal(t, 3, strings.Count(res.Body, `aria-invalid="true"`))

	email, _ := h.addMember(core.RoleMember)
	member := h.client()
	member.signIn(email)
	res = member.get("/settings")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, "Only an owner or admin can change them.")
	require.Contains(t, res.Body, `<a href="/oauth/disconnect">Connected apps</a>`, "everyone reaches their connected apps")
	require.Regexp(t, regexp.MustCompile(`id="company" name="company" type="text" value="Acme Gifts"[^>]* readonly`), res.Body)
	require.NotContains(t, res.Body, "Save settings")
	res = member.post("/settings", url.Values{"company": {"Member Co"}})
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	s, err := h.env.App.Identity.WorkspaceSettings(context.Background(), owner.principal())
	require.NoError(t, err)
	require.Equal(t, "Acme Gifts", s.Company)
}

func TestKeysListAndRevoke(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.client()
	c.signIn(h.env.OwnerEmail)
	res := c.post("/settings/keys", url.Values{"name": {"Sales assistant"}})
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	key := regexp.MustCompile(`<code id="new-key" class="secret-value">(gwk_[0-9a-f]{64})</code>`).FindStringSubmatch(res.Body)
	require.NotNil(t, key, res.Body)
	_, err := h.env.App.Connect.Authenticate(context.Background(), key[1])
	require.NoError(t, err, "the key shown works")

	res = c.get("/settings/keys")
	require.NotContains(t, res.Body, key[1])
	require.Contains(t, res.Body, `<code class="key-prefix">`+key[1][:8]+`…</code>`)
	id := regexp.MustCompile(`action="/settings/keys/(key_[^/]+)/revoke"[^<]*\s*<p>[^<]*</p>\s*<button[^>]*>Revoke “Sales assistant”`).FindStringSubmatch(res.Body)
	require.NotNil(t, id, res.Body)
	res = c.post("/settings/keys/"+id[1]+"/revoke", nil)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	_, err = h.env.App.Connect.Authenticate(context.Background(), key[1])
	require.Equal(t, core.CodeAuthRequired, core.ErrorCode(err))

	res = c.post("/settings/keys/key_nope/revoke", nil)
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	require.Contains(t, res.Body, "There is a problem")
}

func TestDemoWorkspaceCannotCreateKeys(t *testing.T) {
	t.Parallel()
	h := newHarness(t, apptest.Demo())
	c := h.client()
	c.signIn(h.env.OwnerEmail)
	res := c.get("/settings/keys")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, "Keys cannot be created in a demo workspace.")
	res = c.post("/settings/keys", url.Values{"name": {"x"}})
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	require.Contains(t, res.Body, "A demo workspace cannot use this feature.")
}

func TestUnknownPathsAndStaticFiles(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.client()
	res := c.get("/no/such/page")
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	require.Contains(t, res.Body, "There is no page at this address.")

	res = c.get("/login")
	css := regexp.MustCompile(`href="(/static/app\.css\?v=[0-9a-f]+)"`).FindStringSubmatch(res.Body)
	require.NotNil(t, css)
	res = c.get(css[1])
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Header.Get("Content-Type"), "text/css")
	require.Contains(t, res.Header.Get("Cache-Control"), "immutable")
	require.Equal(t, http.StatusNotFound, c.get("/static/").StatusCode)
}
