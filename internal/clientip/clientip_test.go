package clientip_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/clientip"
)

func TestAddress(t *testing.T) {
	t.Parallel()
	r := httptest.NewRequest(http.MethodPost, "/login", nil)
	r.RemoteAddr = "192.0.2.7:51234"
	require.Equal(t, "192.0.2.7", clientip.Address(r, true), "no header: the connection's host")
	r.Header.Add("X-Forwarded-For", "198.51.100.1, 203.0.113.9")
	require.Equal(t, "192.0.2.7", clientip.Address(r, false), "X-Forwarded-For is ignored unless trusted")
	require.Equal(t, "203.0.113.9", clientip.Address(r, true), "the right-most entry is the proxy's")
	r.Header.Set("X-Forwarded-For", "not-an-ip")
	require.Equal(t, "192.0.2.7", clientip.Address(r, true))
}

func TestForwardedRemoteAddr(t *testing.T) {
	t.Parallel()
	var seen string
	h := clientip.ForwardedRemoteAddr(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { seen = r.RemoteAddr }))

	r := httptest.NewRequest(http.MethodPost, "/oauth/register", nil)
	r.RemoteAddr = "192.0.2.7:51234"
	r.Header.Set("X-Forwarded-For", "2001:db8::1")
	h.ServeHTTP(httptest.NewRecorder(), r)
	require.Equal(t, "[2001:db8::1]:51234", seen)
	require.Equal(t, "192.0.2.7:51234", r.RemoteAddr, "the caller's request is not changed")

	r.Header.Del("X-Forwarded-For")
	h.ServeHTTP(httptest.NewRecorder(), r)
	require.Equal(t, "192.0.2.7:51234", seen)
}
