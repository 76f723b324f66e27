package core_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

// TestRateBucketFor: the spec's Limits by route: GET /catalog and GET
// /session are not counted, /artwork and below are counted apart as reads
// or writes, everything else is a request.
func TestRateBucketFor(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		method, path string
		want         core.RateBucket
	}{
		{http.MethodGet, "/catalog", core.RateUncounted},
		{http.MethodGet, "/session", core.RateUncounted},
		{http.MethodHead, "/session/", core.RateUncounted},
		{http.MethodPost, "/session", core.RateRequests},
		{http.MethodGet, "/catalog/products", core.RateRequests},
		{http.MethodGet, "/artwork/{id}", core.RateArtworkReads},
		{http.MethodGet, "/artwork", core.RateArtworkReads},
		{http.MethodPost, "/artwork", core.RateArtworkWrites},
		{http.MethodPost, "/artwork/import-photo", core.RateArtworkWrites},
		{http.MethodDelete, "/artwork/{id}", core.RateArtworkWrites},
		{http.MethodGet, "/artworks", core.RateRequests},
		{http.MethodGet, "/campaigns", core.RateRequests},
	} {
		require.Equal(t, c.want, core.RateBucketFor(c.method, c.path), "%s %s", c.method, c.path)
	}
	var cfg core.Config
	require.Equal(t, 240, cfg.RateLimitFor(core.RateRequests))
	cfg.RateLimitPerMinute = 5000
	require.Equal(t, 5000, cfg.RateLimitFor(core.RateRequests))
	require.Equal(t, 1200, cfg.RateLimitFor(core.RateArtworkReads))
	require.Equal(t, 600, cfg.RateLimitFor(core.RateArtworkWrites))
	require.Equal(t, 120, cfg.RateLimitFor(core.RateAssistantToolCalls))
}
