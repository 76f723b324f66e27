package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The retired routes answer 410 CAPABILITY_RETIRED to every caller with
// credentials, whatever the body names, and 401 without them.
func TestRetiredRoutesAnswerGone(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, c := range []struct{ method, path, body string }{
		{http.MethodPost, "/sends/send_0123456789abcdef01234567/gift-link/email", ``},
		{http.MethodPost, "/sends/send_0123456789abcdef01234567/gift-link/email", `{"to":"ada@example.com"}`},
		{http.MethodPatch, "/campaigns/cmp_0123456789abcdef01234567/gift-link-settings", `{"reminderDays":3,"emailEnabled":true}`},
	} {
		var body *strings.Reader
		opts := []reqOpt{withKey(h.env.OwnerKey)}
		if c.body != "" {
			body = strings.NewReader(c.body)
			opts = append(opts, withJSON())
		} else {
			body = strings.NewReader("")
		}
		res := h.do(c.method, c.path, body, opts...)
		require.Equal(t, http.StatusGone, res.Status, "%s %s: %s", c.method, c.path, res.Body)
		require.Equal(t, "CAPABILITY_RETIRED", res.code())
		require.Equal(t, "stop", res.JSON["nextAction"])
		require.Equal(t, false, res.JSON["retryable"])
		require.Contains(t, res.message(), "your own tools")

		anon := h.do(c.method, c.path, strings.NewReader(c.body), withJSON())
		require.Equal(t, http.StatusUnauthorized, anon.Status, "%s %s without a key", c.method, c.path)
	}
}
