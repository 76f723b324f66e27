package main

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/apptest"
)

// TestMCPTrailingSlash checks that /mcp/ and /chatgpt/mcp/ are the
// endpoints themselves, and a path below them gets the MCP face's JSON
// refusal, never the web app's HTML page.
func TestMCPTrailingSlash(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	srv := httptest.NewServer(routes(env.App, slog.New(slog.DiscardHandler)))
	t.Cleanup(srv.Close)

	post := func(path, key string) (*http.Response, string) {
		req, err := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		return res, string(b)
	}

	for _, path := range []string{"/mcp", "/chatgpt/mcp"} {
		bare, bareBody := post(path, "")
		slash, slashBody := post(path+"/", "")
		require.Equal(t, http.StatusUnauthorized, slash.StatusCode, path+"/")
		require.Equal(t, bare.Header.Get("WWW-Authenticate"), slash.Header.Get("WWW-Authenticate"), path+"/")
		require.JSONEq(t, bareBody, slashBody, path+"/")
	}

	res, body := post("/mcp/", env.OwnerKey)
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	var rpc map[string]any
	require.NoError(t, json.Unmarshal([]byte(body), &rpc), body)
	require.Contains(t, rpc, "result", "initialize at /mcp/ is answered as at /mcp")

	for _, path := range []string{"/mcp/tools", "/chatgpt/mcp/x/y"} {
		res, body := post(path, env.OwnerKey)
		require.Equal(t, http.StatusNotFound, res.StatusCode, path)
		require.Equal(t, "application/json", res.Header.Get("Content-Type"), path)
		require.Contains(t, body, `"code":"NOT_FOUND"`, path)
	}
}

// TestOAuthErrorsAreJSON checks that what a client can meet under /oauth/
// is an OAuth error object, never an HTML page.
func TestOAuthErrorsAreJSON(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	srv := httptest.NewServer(routes(env.App, slog.New(slog.DiscardHandler)))
	t.Cleanup(srv.Close)

	for _, tc := range []struct {
		method, path string
		status       int
		allow        string
	}{
		{http.MethodGet, "/oauth/nope", http.StatusNotFound, ""},
		{http.MethodPost, "/oauth/", http.StatusNotFound, ""},
		{http.MethodGet, "/oauth/token", http.StatusMethodNotAllowed, "POST"},
		{http.MethodPut, "/oauth/revoke", http.StatusMethodNotAllowed, "POST"},
		{http.MethodDelete, "/oauth/authorize", http.StatusMethodNotAllowed, "GET, POST"},
		{http.MethodGet, "/oauth/register", http.StatusMethodNotAllowed, "POST"},
	} {
		req, err := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		require.NoError(t, err)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		require.Equal(t, tc.status, res.StatusCode, "%s %s", tc.method, tc.path)
		require.Equal(t, tc.allow, res.Header.Get("Allow"), "%s %s", tc.method, tc.path)
		require.Equal(t, "application/json", res.Header.Get("Content-Type"), "%s %s", tc.method, tc.path)
		var out map[string]string
		require.NoError(t, json.Unmarshal(b, &out), string(b))
		require.Equal(t, "invalid_request", out["error"], "%s %s", tc.method, tc.path)
		require.NotEmpty(t, out["error_description"])
	}
}
