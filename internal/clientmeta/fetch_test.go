package clientmeta

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestCacheLifetime: what an answer's caching headers say of its freshness
// (RFC 9111 §4.2.1); core bounds the result.
func TestCacheLifetime(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	date := now.Add(-time.Minute).Format(http.TimeFormat)
	for _, c := range []struct {
		name   string
		header http.Header
		want   time.Duration
		ok     bool
	}{
		{"none", http.Header{}, 0, false},
		{"max-age", http.Header{"Cache-Control": {"public, max-age=600"}}, 10 * time.Minute, true},
		{"quoted max-age", http.Header{"Cache-Control": {`max-age="60"`}}, time.Minute, true},
		{"no-store wins", http.Header{"Cache-Control": {"max-age=600", "no-store"}}, 0, true},
		{"no-cache", http.Header{"Cache-Control": {"No-Cache"}}, 0, true},
		{"malformed max-age", http.Header{"Cache-Control": {"max-age=soon"}}, 0, true},
		{"max-age over Expires", http.Header{"Cache-Control": {"max-age=5"}, "Expires": {now.Add(time.Hour).Format(http.TimeFormat)}}, 5 * time.Second, true},
		{"Expires minus Date", http.Header{"Date": {date}, "Expires": {now.Add(time.Hour).Format(http.TimeFormat)}}, time.Hour + time.Minute, true},
		{"Expires minus now", http.Header{"Expires": {now.Add(time.Hour).Format(http.TimeFormat)}}, time.Hour, true},
		{"Expires past", http.Header{"Expires": {now.Add(-time.Hour).Format(http.TimeFormat)}}, 0, true},
		{"Expires not a date", http.Header{"Expires": {"0"}}, 0, true},
		{"huge max-age", http.Header{"Cache-Control": {"max-age=99999999999999"}}, (1 << 31) * time.Second, true},
	} {
		got, ok := cacheLifetime(c.header, now)
		require.Equal(t, c.ok, ok, c.name)
		require.Equal(t, c.want, got, c.name)
	}
}

// TestIsJSON: only JSON media types are documents.
func TestIsJSON(t *testing.T) {
	t.Parallel()
	for ct, want := range map[string]bool{
		"application/json": true, "application/json; charset=utf-8": true, "Application/JSON": true,
		"application/client-metadata+json": true, "text/html": false, "text/json": false,
		"application/jsonp": false, "": false, "application/json;;": false,
	} {
		require.Equal(t, want, isJSON(ct), ct)
	}
}
