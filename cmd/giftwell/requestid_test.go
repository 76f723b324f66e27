package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/internal/reqlog"
)

// TestClientRequestIDsAreBounded: a short, safe X-Request-Id is echoed and
// logged; a long or unsafe one is neither, and the request gets an id made
// here.
func TestClientRequestIDsAreBounded(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	logs := &apptest.LogBuffer{}
	srv := httptest.NewServer(routes(env.App, newLoggerTo(logs)))
	t.Cleanup(srv.Close)

	res, _ := send(t, http.MethodGet, srv.URL+"/healthz", "", "", map[string]string{"X-Request-Id": "trace-7f3a:1"})
	require.Equal(t, "trace-7f3a:1", res.Header.Get("X-Request-Id"))
	require.Len(t, withID(logLines(t, logs.String()), "trace-7f3a:1"), 1)

	for id, token := range map[string]string{strings.Repeat("A", 8<<10): strings.Repeat("A", 65), `x" injected="1`: "injected", "<b>bold</b>": "bold"} {
		res, _ = send(t, http.MethodGet, srv.URL+"/healthz", "", "", map[string]string{"X-Request-Id": id})
		got := res.Header.Get("X-Request-Id")
		require.NotEqual(t, id, got)
		require.True(t, reqlog.ValidRequestID(got), "%q", got)
		require.Len(t, withID(logLines(t, logs.String()), got), 1)
		require.NotContains(t, logs.String(), token, "the client's id is not logged")
	}
}
