package main

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/apptest"
)

func TestHealthAndReady(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	srv := httptest.NewServer(routes(env.App, slog.New(slog.DiscardHandler)))
	t.Cleanup(srv.Close)

	for path, body := range map[string]string{"/healthz": "ok\n", "/readyz": "ready\n"} {
		res, err := http.Get(srv.URL + path)
		require.NoError(t, err)
		b, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode, path)
		require.Equal(t, body, string(b))
		require.NotEmpty(t, res.Header.Get("X-Request-Id"))
	}

	env.App.DB.Close()
	res, err := http.Get(srv.URL + "/readyz")
	require.NoError(t, err)
	_ = res.Body.Close()
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
}

func TestSiteURLFor(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]string{
		"127.0.0.1:8080": "http://127.0.0.1:8080",
		"0.0.0.0:80":     "http://127.0.0.1:80",
		"[::]:9000":      "http://127.0.0.1:9000",
		":8080":          "http://127.0.0.1:8080",
		"[::1]:8080":     "http://[::1]:8080",
		"example.com:81": "http://example.com:81",
	} {
		require.Equal(t, want, siteURLFor(addr), addr)
	}
}

// TestFacesAreMounted checks that every face answers at its path through the
// real wiring: REST, both MCP endpoints and their metadata documents.
func TestFacesAreMounted(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	srv := httptest.NewServer(routes(env.App, slog.New(slog.DiscardHandler)))
	t.Cleanup(srv.Close)

	get := func(path, key string) (*http.Response, string) {
		req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		require.NoError(t, err)
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		return res, string(b)
	}

	res, body := get("/api/v1/catalog", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, body, `"data":[`)

	res, body = get("/api/v1/workflow", env.OwnerKey)
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	require.Contains(t, body, `"mcpEndpoint"`)

	res, body = get("/api/v1/nope", env.OwnerKey)
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	require.Contains(t, body, `"code":"NOT_FOUND"`)

	for _, path := range []string{"/mcp", "/chatgpt/mcp"} {
		res, body = get(path, "")
		require.Equal(t, http.StatusUnauthorized, res.StatusCode, path)
		require.Contains(t, res.Header.Get("WWW-Authenticate"), "/.well-known/oauth-protected-resource"+path)
		require.Contains(t, body, `"code":"AUTH_REQUIRED"`)

		res, body = get("/.well-known/oauth-protected-resource"+path, "")
		require.Equal(t, http.StatusOK, res.StatusCode, path)
		require.Contains(t, body, `"resource":"`+env.App.Config.SiteURL+path+`"`)
	}

	res, _ = get("/mcp", env.OwnerKey)
	require.Equal(t, http.StatusMethodNotAllowed, res.StatusCode, "an authenticated GET is 405")

	req, err := http.NewRequest("PURGE", srv.URL+"/api/v1/catalog", nil)
	require.NoError(t, err)
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	require.Equal(t, http.StatusMethodNotAllowed, res.StatusCode)
	require.Contains(t, string(b), `"code":"METHOD_NOT_ALLOWED"`, "unknown methods get the envelope too")
}

func TestLoggedPathHidesSecrets(t *testing.T) {
	t.Parallel()
	require.Equal(t, "/invite/[redacted]", loggedPath("/invite/5f1c0ffee"))
	require.Equal(t, "/invite/", loggedPath("/invite/"))
	require.Equal(t, "/api/v1/catalog", loggedPath("/api/v1/catalog"))
}
