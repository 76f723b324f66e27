package artwork_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/internal/apptest"
)

// TestImportPhoto fetches a portrait from a direct image URL through the
// SSRF-guarded fetcher, and refuses pages, redirects, small images,
// oversize answers, private addresses and profile or sharing sites.
func TestImportPhoto(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx, p := context.Background(), owner(t, env)
	portrait, tiny := pngOf(t, 400, 300), pngOf(t, 10, 10)
	mux := http.NewServeMux()
	mux.HandleFunc("/ana.png", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(portrait)
	})
	mux.HandleFunc("/tiny.png", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(tiny) })
	mux.HandleFunc("/page", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html><img src=ana.png></html>"))
	})
	mux.HandleFunc("/disguised.png", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(append([]byte("\x89PNG\r\n\x1a\n"), "<html></html>"...))
	})
	mux.HandleFunc("/moved.png", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://169.254.169.254/latest/meta-data", http.StatusFound)
	})
	mux.HandleFunc("/huge.png", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write(append(portrait, make([]byte, artwork.MaxFileBytes)...))
	})
	srv := httptest.NewTLSServer(mux)
	t.Cleanup(srv.Close)

	// Not allowed yet: a loopback address is private.
	_, err := env.App.Artwork.ImportPhoto(ctx, p, artwork.PhotoImport{URL: srv.URL + "/ana.png", RightsConfirmed: true})
	e := apptest.RequireCode(t, err, core.CodeValidation)
	require.Equal(t, []string{"url"}, e.Fields)
	require.Contains(t, e.Message, "could not be fetched: refused: not a public address")
	require.NotContains(t, e.Message, "127.0.0.1", "the guard's reason is logged, not returned")

	env.AllowPhotoServer(t, srv)
	a, err := env.App.Artwork.ImportPhoto(ctx, p, artwork.PhotoImport{URL: srv.URL + "/ana.png?size=large#x", RightsConfirmed: true})
	require.NoError(t, err)
	require.Equal(t, "ana.png", a.Filename)
	require.Equal(t, artwork.MimePNG, a.Mime)
	f, err := env.App.Artwork.Get(ctx, p, a.ID)
	require.NoError(t, err)
	require.Equal(t, portrait, f.Body)

	for _, tc := range []struct {
		url, want string
		rights    bool
		field     string
	}{
		{srv.URL + "/ana.png", "must be true", false, "rightsConfirmed"},
		{"http://example.com/a.png", "https://", true, "url"},
		{"https://www.linkedin.com/in/ana", "a LinkedIn page", true, "url"},
		{"https://media.licdn.com.evil.linkedin.com/x.png", "a LinkedIn page", true, "url"},
		{"https://drive.google.com/file/d/1/view", "sharing", true, "url"},
		{srv.URL + "/page", "HTML page", true, "url"},
		{srv.URL + "/disguised.png", "header does not decode", true, "url"},
		{srv.URL + "/tiny.png", "at least 256x256", true, "url"},
		{srv.URL + "/moved.png", "redirect", true, "url"},
		{srv.URL + "/huge.png", "could not be fetched: too large", true, "url"},
		{srv.URL + "/missing.png", "HTTP 404", true, "url"},
	} {
		_, err := env.App.Artwork.ImportPhoto(ctx, p, artwork.PhotoImport{URL: tc.url, RightsConfirmed: tc.rights})
		e := apptest.RequireCode(t, err, core.CodeValidation)
		require.Equal(t, []string{tc.field}, e.Fields, tc.url)
		require.Contains(t, e.Message, tc.want, tc.url)
	}
	items, err := env.App.Artwork.List(ctx, p)
	require.NoError(t, err)
	require.Len(t, items, 1, "only the good photo was kept")
	require.Equal(t, artwork.PurposePortrait, items[0].Purpose)
	require.Equal(t, srv.URL+"/ana.png?size=large", items[0].SourceURL)

	// The day's photo imports are counted.
	_, err = env.App.DB.Exec(ctx, `UPDATE artwork_days SET photo_imports = 550 WHERE workspace_id = $1`, env.WorkspaceID)
	require.NoError(t, err)
	_, err = env.App.Artwork.ImportPhoto(ctx, p, artwork.PhotoImport{URL: srv.URL + "/ana.png", RightsConfirmed: true})
	require.Positive(t, apptest.RequireCode(t, err, core.CodeRateLimit).RetryAfterMs)
}

// A plain-http URL under the operator's allowed prefixes is imported (as
// the README says: photo imports follow --webhook-allow-urls), while one
// outside them is still refused as not https.
func TestImportPhotoFollowsTheAllowedPrefixes(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx, p := context.Background(), owner(t, env)
	portrait := pngOf(t, 400, 300)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(portrait)
	}))
	t.Cleanup(srv.Close)

	_, err := env.App.Artwork.ImportPhoto(ctx, p, artwork.PhotoImport{URL: srv.URL + "/photos/ana.png", RightsConfirmed: true})
	require.Contains(t, apptest.RequireCode(t, err, core.CodeValidation).Message, "https://", "not allowed yet")

	env.AllowPhotoPrefixes(t, srv.URL+"/photos/")
	a, err := env.App.Artwork.ImportPhoto(ctx, p, artwork.PhotoImport{URL: srv.URL + "/photos/ana.png", RightsConfirmed: true})
	require.NoError(t, err)
	require.Equal(t, "ana.png", a.Filename)

	_, err = env.App.Artwork.ImportPhoto(ctx, p, artwork.PhotoImport{URL: srv.URL + "/elsewhere/ana.png", RightsConfirmed: true})
	e := apptest.RequireCode(t, err, core.CodeValidation)
	require.Equal(t, []string{"url"}, e.Fields)
	require.Contains(t, e.Message, "https://", "a URL outside the prefixes is still refused")
}
