package rest

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

// TestOpenURLCodesCarryAURL is the REST face's row of the table every face
// runs: each open_url code carries a url, its own or the site's home page,
// and the body is core's envelope byte for byte.
func TestOpenURLCodesCarryAURL(t *testing.T) {
	t.Parallel()
	const site = "https://giftwell.example"
	s := &server{siteURL: site, log: slog.New(slog.DiscardHandler)}
	n := 0
	for _, code := range core.Codes() {
		if code.Info().NextAction != core.OpenURL {
			continue
		}
		n++
		for _, err := range []*core.Error{
			{Code: code, Message: "a person must act"},
			{Code: code, Message: "a person must act", URL: site + "/balance"},
		} {
			rec := httptest.NewRecorder()
			s.fail(rec, httptest.NewRequest(http.MethodGet, "/x", nil), err)
			var env core.Envelope
			require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &env))
			want := err.URL
			if want == "" {
				want = site + "/"
			}
			require.Equal(t, want, env.URL, code)

			status, same, _ := core.EnvelopeOf(err, site)
			b, merr := json.Marshal(same)
			require.NoError(t, merr)
			require.Equal(t, status, rec.Code, code)
			require.Equal(t, string(b), rec.Body.String(), code)
		}
	}
	require.GreaterOrEqual(t, n, 8, "the spec's open_url codes")
}
