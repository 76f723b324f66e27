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
