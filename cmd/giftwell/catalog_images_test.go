package main

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/apptest"
)

// TestCatalogImagesAreServed fetches every product's picture at its image
// address through the real wiring, signed out: the shipped illustration's
// bytes with the picture headers; older addresses redirect to it, and
// unknown ones are the API's 404.
func TestCatalogImagesAreServed(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	srv := httptest.NewServer(routes(env.App, slog.New(slog.DiscardHandler)))
	t.Cleanup(srv.Close)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(method, path string, header ...string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, nil)
		require.NoError(t, err)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		res, err := client.Do(req)
		require.NoError(t, err)
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		_ = res.Body.Close()
		return res, b
	}

	products, err := env.App.Catalog.Products(t.Context())
	require.NoError(t, err)
	require.Len(t, products, 38)
	for _, p := range products {
		want, err := os.ReadFile("../../core/catalog/images/" + p.ID + ".svg")
		require.NoError(t, err, "%s has a shipped illustration", p.ID)
		require.Regexp(t, `^/catalog/images/`+p.ID+`\.[0-9a-f]{8}\.svg$`, p.Image)

		res, body := do(http.MethodGet, p.Image)
		require.Equal(t, http.StatusOK, res.StatusCode, p.Image)
		require.Equal(t, want, body, p.ID)
		require.Equal(t, "image/svg+xml", res.Header.Get("Content-Type"))
		require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
		require.Equal(t, "public, max-age=31536000, immutable", res.Header.Get("Cache-Control"))
		require.Equal(t, "default-src 'none'; style-src 'unsafe-inline'; sandbox", res.Header.Get("Content-Security-Policy"))
	}

	p := products[0]
	res, body := do(http.MethodHead, p.Image)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Empty(t, body)
	require.Equal(t, "image/svg+xml", res.Header.Get("Content-Type"))

	res, _ = do(http.MethodGet, p.Image, "If-None-Match", res.Header.Get("ETag"))
	require.Equal(t, http.StatusNotModified, res.StatusCode, "a cached copy is still good")

	// The unhashed address the catalog file names, the old .jpg address and
	// an earlier hash all lead to the current address, never cached for good.
	for _, older := range []string{"/catalog/images/" + p.ID + ".svg", "/catalog/images/" + p.ID + ".jpg", "/catalog/images/" + p.ID + ".0123abcd.svg"} {
		res, _ := do(http.MethodGet, older)
		require.Equal(t, http.StatusFound, res.StatusCode, older)
		require.Equal(t, p.Image, res.Header.Get("Location"), older)
		require.Equal(t, "public, max-age=300", res.Header.Get("Cache-Control"), older)
	}

	for _, unknown := range []string{"/catalog/images/no-such-gift.svg", "/catalog/images/no-such-gift.0123abcd.svg", "/catalog/images/", "/catalog/images/" + p.ID, "/catalog/images/a/" + p.ID + ".svg"} {
		res, body := do(http.MethodGet, unknown)
		require.Equal(t, http.StatusNotFound, res.StatusCode, unknown)
		require.Equal(t, "application/json", res.Header.Get("Content-Type"), unknown)
		var env struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		}
		require.NoError(t, json.Unmarshal(body, &env), string(body))
		require.Equal(t, "NOT_FOUND", env.Code, string(body))
		require.NotContains(t, res.Header.Get("Cache-Control"), "immutable")
	}

	res, body = do(http.MethodPost, p.Image)
	require.Equal(t, http.StatusMethodNotAllowed, res.StatusCode)
	require.Equal(t, "GET, HEAD", res.Header.Get("Allow"))
	require.True(t, strings.Contains(string(body), `"METHOD_NOT_ALLOWED"`), string(body))
}
