package main

import (
	"context"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// TestTrustForwardedForIsWired checks that sign-in attempts and OAuth client
// registrations count against the X-Forwarded-For address only when serve
// trusts it, and against the connection's address otherwise.
func TestTrustForwardedForIsWired(t *testing.T) {
	t.Parallel()
	const forwarded = "203.0.113.9"
	for _, trust := range []bool{false, true} {
		env := apptest.New(t)
		srv := httptest.NewServer(routes(env.App, slog.New(slog.DiscardHandler), withTrustForwardedFor(trust)))
		t.Cleanup(srv.Close)
		header := map[string]string{"X-Forwarded-For": "198.51.100.1, " + forwarded}

		form := url.Values{"email": {env.OwnerEmail}, "password": {"not the password"}}
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/login", strings.NewReader(form.Encode()))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Forwarded-For", header["X-Forwarded-For"])
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		require.NoError(t, res.Body.Close())
		require.Equal(t, http.StatusUnauthorized, res.StatusCode, "a wrong password")

		res, body := send(t, http.MethodPost, srv.URL+"/oauth/register", "",
			`{"client_name":"Proxy Test","redirect_uris":["http://127.0.0.1:33418/callback"],"token_endpoint_auth_method":"none"}`, header)
		require.Equal(t, http.StatusCreated, res.StatusCode, body)

		ctx := context.Background()
		q := db.New(env.App.DB)
		since := env.Clock.Now().Add(-time.Hour)
		counted := func(addr string) (signIns, registrations int64) {
			a, err := q.LoginAttemptCount(ctx, db.LoginAttemptCountParams{Email: env.OwnerEmail, ID: math.MaxInt64, Since: since, ClientIp: addr})
			require.NoError(t, err)
			r, err := q.OAuthClientCountRecent(ctx, db.OAuthClientCountRecentParams{Since: since, RegisteredFrom: addr})
			require.NoError(t, err)
			return a.IpCount, r.N
		}
		fwdSignIns, fwdRegs := counted(forwarded)
		connSignIns, connRegs := counted("127.0.0.1")
		if trust {
			require.EqualValues(t, [4]int64{1, 1, 0, 0}, [4]int64{fwdSignIns, fwdRegs, connSignIns, connRegs},
				"trusted: the forwarded address counts")
		} else {
			require.EqualValues(t, [4]int64{0, 0, 1, 1}, [4]int64{fwdSignIns, fwdRegs, connSignIns, connRegs},
				"not trusted: the connection's address counts")
		}
	}
}
