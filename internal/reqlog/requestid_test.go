package reqlog_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/reqlog"
)

// TestRequestIDKeepsOnlySafeClientIDs: a client's X-Request-Id is kept when
// it is short and of the safe alphabet; any other is replaced by one made
// here.
func TestRequestIDKeepsOnlySafeClientIDs(t *testing.T) {
	t.Parallel()
	var got string
	h := reqlog.RequestID(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		got = middleware.GetReqID(r.Context())
	}))
	serve := func(header []string) string {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		for _, v := range header {
			r.Header.Add("X-Request-Id", v)
		}
		h.ServeHTTP(httptest.NewRecorder(), r)
		return got
	}
	for _, id := range []string{"a", "req-7", "3f2a.b_c:D-9", strings.Repeat("x", reqlog.MaxRequestIDLength)} {
		require.Equal(t, id, serve([]string{id}))
	}
	made := serve(nil)
	require.NotEmpty(t, made)
	for _, id := range []string{
		"", strings.Repeat("x", reqlog.MaxRequestIDLength+1), strings.Repeat("x", 1<<20),
		"with space", `quote"`, "<script>", "line\nbreak", "nul\x00", "tab\t", "ünïcode", "a/b", "a;b",
	} {
		got := serve([]string{id})
		require.NotEqual(t, id, got)
		require.True(t, reqlog.ValidRequestID(got), "%q", got)
		require.NotEqual(t, made, got, "a fresh id each time")
	}
}
