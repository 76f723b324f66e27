package webhooksend_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/webhooksend"
)

// Get reads an answer within the response bound, never follows a
// redirect, and refuses what Send refuses, rebinding included.
func TestGet(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/doc":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"accept":"` + r.Header.Get("Accept") + `"}`))
		case "/big":
			_, _ = w.Write([]byte(strings.Repeat("x", 101)))
		case "/moved":
			http.Redirect(w, r, "/doc", http.StatusFound)
		}
	}))
	t.Cleanup(srv.Close)
	c := allowing(t, srv.URL, webhooksend.Options{MaxResponseBytes: 100})

	ans, err := c.Get(context.Background(), srv.URL+"/doc", http.Header{"Accept": {"application/json"}})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, ans.Status)
	require.Equal(t, "application/json", ans.Header.Get("Content-Type"))
	require.JSONEq(t, `{"accept":"application/json"}`, string(ans.Body))

	_, err = c.Get(context.Background(), srv.URL+"/big", nil)
	require.EqualError(t, err, "the answer is larger than 100 bytes")

	ans, err = c.Get(context.Background(), srv.URL+"/moved", nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusFound, ans.Status)

	addr, accepted := countingListener(t)
	_, port, err := net.SplitHostPort(addr)
	require.NoError(t, err)
	dns := newFakeDNS(nil)
	dns.set("rebind.example.com", "127.0.0.1")
	guarded, err := webhooksend.New(webhooksend.Options{Resolver: dns})
	require.NoError(t, err)
	_, err = guarded.Get(context.Background(), "https://10.0.0.1/client.json", nil)
	require.EqualError(t, err, "refused: url: 10.0.0.1 is a private (RFC 1918) address, not a public address")
	_, err = guarded.Get(context.Background(), "https://rebind.example.com:"+port+"/client.json", nil)
	require.EqualError(t, err, "dial refused: 127.0.0.1 is a loopback address, not a public address")
	require.Zero(t, accepted.Load())
}
