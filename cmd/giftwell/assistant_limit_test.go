package main

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/mcp"
)

// TestAssistantEndpointIsLimited: the served /chatgpt/mcp lets a workspace
// make 120 tool calls a minute (here six batches of 20), refuses the next
// with 429 RATE_LIMIT and Retry-After, and allows calls again the next
// minute.
func TestAssistantEndpointIsLimited(t *testing.T) {
	t.Parallel()
	s := newOAuthSite(t)
	code := s.consent(t, s.authorizeQuery(func(q url.Values) { q.Set("resource", s.url+"/chatgpt/mcp") })).Query().Get("code")
	status, tok, _ := s.tokenRequest(t, url.Values{
		"grant_type": {"authorization_code"}, "code": {code}, "client_id": {s.client},
		"redirect_uri": {"http://127.0.0.1:5555/callback"}, "code_verifier": {s.verifer}, "resource": {s.url + "/chatgpt/mcp"},
	})
	require.Equal(t, http.StatusOK, status, tok)
	access := tok["access_token"].(string)
	now := s.env.Clock.Now() // the test's clock stands still
	left := now.Truncate(time.Minute).Add(time.Minute).Sub(now)

	call := func(n int) (*http.Response, string) {
		msgs := make([]string, n)
		for i := range msgs {
			msgs[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"get_workflow_guide","arguments":{}}}`, i+1)
		}
		body := msgs[0]
		if n > 1 {
			body = "[" + strings.Join(msgs, ",") + "]"
		}
		req, err := http.NewRequest(http.MethodPost, s.url+"/chatgpt/mcp", strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-03-26")
		req.Header.Set("Authorization", "Bearer "+access)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res, string(b)
	}
	for range core.AssistantToolCallsPerMinute / mcp.MaxBatchMessages {
		res, body := call(mcp.MaxBatchMessages)
		require.Equal(t, http.StatusOK, res.StatusCode, body)
	}
	res, body := call(1)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, body)
	require.Equal(t, strconv.FormatInt((left.Milliseconds()+999)/1000, 10), res.Header.Get("Retry-After"))
	require.Contains(t, body, `"code":"RATE_LIMIT"`)

	s.env.Clock.Advance(left)
	res, body = call(1)
	require.Equal(t, http.StatusOK, res.StatusCode, body)
}
