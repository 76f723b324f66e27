package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/connect"
)

// TestOAuthConcurrentRefresh: 8 refreshes with one refresh token at once
// through /oauth/token. Exactly one gets new tokens; the others are refused
// (a refresh that arrives after the winner committed is a replay, which
// ends the grant as the spec says). Either way the grant is consistent: the
// winner's access and refresh tokens both work, or neither does, and the
// used refresh token never works again.
func TestOAuthConcurrentRefresh(t *testing.T) {
	t.Parallel()
	s := newOAuthSite(t)
	status, tok, _ := s.exchange(t, s.consent(t, s.authorizeQuery(nil), "gifts:write").Query().Get("code"))
	require.Equal(t, http.StatusOK, status, tok)
	refresh := tok["refresh_token"].(string)

	type answer struct {
		status int
		body   map[string]any
		err    error
	}
	const racers = 8
	answers := make(chan answer, racers)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range racers {
		wg.Go(func() {
			<-start
			form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {s.client}}
			res, err := http.PostForm(s.url+"/oauth/token", form)
			if err != nil {
				answers <- answer{err: err}
				return
			}
			defer res.Body.Close()
			raw, err := io.ReadAll(res.Body)
			var body map[string]any
			if err == nil {
				err = json.Unmarshal(raw, &body)
			}
			answers <- answer{status: res.StatusCode, body: body, err: err}
		})
	}
	close(start)
	wg.Wait()
	close(answers)

	var won []map[string]any
	for a := range answers {
		require.NoError(t, a.err)
		if a.status == http.StatusOK {
			won = append(won, a.body)
			continue
		}
		t.Logf("refused: %v", a.body["error"])
		require.Equal(t, http.StatusBadRequest, a.status, a.body)
		require.Contains(t, []any{"invalid_grant", "invalid_request"}, a.body["error"], a.body)
	}
	require.Len(t, won, 1, "exactly one refresh wins")
	winner := won[0]

	_, accessErr := s.env.App.Connect.Authenticate(t.Context(), winner["access_token"].(string))
	live := accessErr == nil
	t.Logf("after the race the grant is live: %v", live)
	status, next, _ := s.tokenRequest(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {winner["refresh_token"].(string)}, "client_id": {s.client}})
	if live {
		require.Equal(t, http.StatusOK, status, "the winner's access token works, so must its refresh token: %v", next)
	} else {
		require.Equal(t, http.StatusBadRequest, status, "the grant ended, so the winner's refresh token must not work either: %v", next)
	}
	status, replay, _ := s.tokenRequest(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {s.client}})
	require.Equal(t, http.StatusBadRequest, status, replay)
	_, err := s.env.App.Connect.Authenticate(t.Context(), tok["access_token"].(string))
	require.Error(t, err, "the first access token ended with the rotation")
}

// TestOAuthCodeExpiresOnTheAppClock: an authorization code lasts 10
// minutes on the App's clock, which the token strategy reads.
func TestOAuthCodeExpiresOnTheAppClock(t *testing.T) {
	t.Parallel()
	s := newOAuthSite(t)
	code := s.consent(t, s.authorizeQuery(nil)).Query().Get("code")
	s.env.Clock.Advance(connect.OAuthCodeLifetime + time.Second)
	status, out, _ := s.exchange(t, code)
	require.Equal(t, http.StatusBadRequest, status, out)
	require.Equal(t, "invalid_grant", out["error"])

	code = s.consent(t, s.authorizeQuery(nil)).Query().Get("code")
	s.env.Clock.Advance(connect.OAuthCodeLifetime - time.Minute)
	status, out, _ = s.exchange(t, code)
	require.Equal(t, http.StatusOK, status, out)
}
