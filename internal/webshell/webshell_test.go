package webshell

import (
	"bytes"
	"html/template"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
)

// testPage is what a face hands the layout.
type testPage struct {
	Shell   *Header
	Nav     string
	Notice  string
	Problem any
	Data    any
}

// TestLayoutDrawsAPage parses a page into the layout and draws it signed
// out (brand only) and signed in (workspace, test-mode marker, nav).
func TestLayoutDrawsAPage(t *testing.T) {
	t.Parallel()
	layout, err := Layout(nil)
	require.NoError(t, err)
	page, err := template.Must(layout.Clone()).Parse(`{{define "title"}}T{{end}}{{define "main"}}<h1>{{.Data}}</h1>{{end}}`)
	require.NoError(t, err)

	var out bytes.Buffer
	require.NoError(t, page.ExecuteTemplate(&out, "layout", testPage{Data: "Hello"}))
	html := out.String()
	require.Contains(t, html, `<a class="brand" href="/">Giftwell</a>`)
	require.Contains(t, html, `<link rel="stylesheet" href="`+AssetURL("app.css")+`">`)
	require.Contains(t, html, "<h1>Hello</h1>")
	require.NotContains(t, html, "site-nav", "no nav when signed out")

	out.Reset()
	hd := &Header{Workspace: identity.WorkspaceSummary{ID: "ws_1", Name: "Acme", Mode: core.ModeTest}, Email: "a@example.com"}
	require.NoError(t, page.ExecuteTemplate(&out, "layout", testPage{Shell: hd, Notice: "Saved.", Data: "Hello"}))
	html = out.String()
	require.Contains(t, html, `<span class="workspace-name">Acme</span>`)
	require.Contains(t, html, `badge-test`)
	require.Contains(t, html, `href="/campaigns"`)
	require.Contains(t, html, "Saved.")
	require.NotContains(t, html, "workspace-switch", "one workspace: no switcher")
}

func TestStaticHandler(t *testing.T) {
	t.Parallel()
	h := StaticHandler()
	get := func(target string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
		return rec
	}
	rec := get(AssetURL("app.css"))
	require.Equal(t, http.StatusOK, rec.Code)
	require.True(t, strings.HasPrefix(rec.Header().Get("Content-Type"), "text/css"))
	require.Contains(t, rec.Header().Get("Cache-Control"), "immutable")
	require.Contains(t, rec.Body.String(), ".site-header")

	rec = get(StaticPrefix + "app.js?v=old")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, "no-cache", rec.Header().Get("Cache-Control"))

	require.Equal(t, http.StatusNotFound, get(StaticPrefix).Code)
	require.Equal(t, http.StatusNotFound, get(StaticPrefix+"nope.css").Code)
}
