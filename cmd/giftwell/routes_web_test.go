package main

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/apptest"
)

// TestWebAppIsMounted checks that the web app answers at the site root
// through the real wiring, next to the health checks and the API, and that
// a cross-site form post is refused there.
func TestWebAppIsMounted(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	srv := httptest.NewServer(routes(env.App, slog.New(slog.DiscardHandler)))
	t.Cleanup(srv.Close)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	res, err := client.Get(srv.URL + "/login")
	require.NoError(t, err)
	b, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(b), `<form method="post" action="/login"`)
	require.NotEmpty(t, res.Header.Get("X-Request-Id"))

	res, err = client.Get(srv.URL + "/")
	require.NoError(t, err)
	_ = res.Body.Close()
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	require.Equal(t, "/login", res.Header.Get("Location"))

	req, err := http.NewRequest(http.MethodPost, srv.URL+"/login", strings.NewReader("email=a%40b.example&password=x"))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	res, err = client.Do(req)
	require.NoError(t, err)
	_ = res.Body.Close()
	require.Equal(t, http.StatusForbidden, res.StatusCode)
}
