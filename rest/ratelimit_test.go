package rest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/rest"
	"github.com/giftwell/giftwell/tools"
)

type artworkIn struct {
	ID string `json:"id,omitempty"`
}

// artworkTools are cheap routes under /artwork beside the real ones (whose
// uploads meet the daily upload limits first): the limit classifies every
// route by its /artwork path alone.
func artworkTools() []tools.Tool {
	return []tools.Tool{
		tools.Define("get_test_artwork", "Reads an artwork file. Test only.", tools.ScopeRead, core.ActRead,
			func(_ context.Context, _ core.Principal, in artworkIn) (artworkIn, error) { return in, nil },
			tools.REST(http.MethodGet, "/artwork/test/{id}", http.StatusOK)),
		tools.Define("upload_test_artwork", "Uploads an artwork file. Test only.", tools.ScopeWrite, core.ActEditDrafts,
			func(_ context.Context, _ core.Principal, in artworkIn) (artworkIn, error) { return in, nil },
			tools.REST(http.MethodPost, "/artwork/test", http.StatusCreated)),
	}
}

// TestArtworkRoutesAreCountedApart: artwork reads (1,200 a minute) and
// writes (600) are counted apart from each other and from the workspace's
// requests; over either, 429 RATE_LIMIT with Retry-After and the
// RateLimit headers.
func TestArtworkRoutesAreCountedApart(t *testing.T) {
	t.Parallel()
	env := apptest.New(t, apptest.WithRateLimit(2))
	h := rest.NewHandler(rest.Config{App: env.App, Tools: append(tools.All(env.App), artworkTools()...)})
	mux := http.NewServeMux()
	mux.Handle("/api/v1/", http.StripPrefix("/api/v1", h))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	do := func(method, path string) *http.Response {
		var body *strings.Reader
		if method == http.MethodPost {
			body = strings.NewReader(`{}`)
		} else {
			body = strings.NewReader("")
		}
		req, err := http.NewRequest(method, srv.URL+"/api/v1"+path, body)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+env.OwnerKey)
		if method == http.MethodPost {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		require.NoError(t, res.Body.Close())
		return res
	}

	for i := range core.ArtworkWritesPerMinute {
		require.Equal(t, http.StatusCreated, do(http.MethodPost, "/artwork/test").StatusCode, "write %d", i+1)
	}
	res := do(http.MethodPost, "/artwork/test")
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode)
	require.Equal(t, "60", res.Header.Get("Retry-After"))
	require.Equal(t, "600", res.Header.Get("RateLimit-Limit"))
	require.Equal(t, "0", res.Header.Get("RateLimit-Remaining"))

	for i := range core.ArtworkReadsPerMinute {
		require.Equal(t, http.StatusOK, do(http.MethodGet, "/artwork/test/art_1").StatusCode, "read %d", i+1)
	}
	require.Equal(t, http.StatusTooManyRequests, do(http.MethodGet, "/artwork/test/art_1").StatusCode)
	require.Equal(t, http.StatusTooManyRequests, do(http.MethodGet, "/artwork/asset_0123456789abcdef01234567").StatusCode,
		"the real artwork file route counts in the same bucket")

	// The workspace's own requests (a limit of 2 here) were never touched.
	res = do(http.MethodGet, "/workflow")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "2", res.Header.Get("RateLimit-Limit"))
	require.Equal(t, "1", res.Header.Get("RateLimit-Remaining"))
	require.Equal(t, http.StatusOK, do(http.MethodGet, "/workflow").StatusCode)
	require.Equal(t, http.StatusTooManyRequests, do(http.MethodGet, "/workflow").StatusCode)
}
