package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/apptest"
)

// TestOversizeBodiesGetTheirAnswer: a standard client posting 4 MiB or
// 6 MiB reads the 413 envelope (REST, MCP) or page (web), not a broken
// pipe, and so do answers given before the body is read (401, 415).
func TestOversizeBodiesGetTheirAnswer(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	srv := httptest.NewServer(routes(env.App, slog.New(slog.DiscardHandler)))
	t.Cleanup(srv.Close)
	client := srv.Client()

	// Two clients: Go's, which reads the answer while it sends, and one
	// that sends the whole request before it reads (as many HTTP libraries
	// do), which sees a reset connection when the server stops reading.
	var writeFirst bool
	post := func(t *testing.T, path, contentType, key string, body []byte, chunked bool) (*http.Response, []byte) {
		t.Helper()
		var r io.Reader = bytes.NewReader(body)
		if chunked {
			r = io.MultiReader(r) // no length known: sent chunked
		}
		req, err := http.NewRequest(http.MethodPost, srv.URL+path, r)
		require.NoError(t, err)
		req.Header.Set("Content-Type", contentType)
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		var res *http.Response
		if writeFirst {
			res, err = sendThenRead(srv.Listener.Addr().String(), req)
		} else {
			res, err = client.Do(req)
		}
		require.NoError(t, err, "the client reads the answer, not a write error")
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res, b
	}
	jsonBody := func(n int) []byte {
		return []byte(`{"name":"` + strings.Repeat("x", n) + `"}`)
	}
	for _, size := range []int{4 << 20, 6 << 20} {
		for _, chunked := range []bool{false, true} {
			for _, writeFirst = range []bool{false, true} {
				res, b := post(t, "/api/v1/campaigns", "application/json", env.OwnerKey, jsonBody(size), chunked)
				require.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode, "%s", b)
				require.Equal(t, "REQUEST_TOO_LARGE", envelopeCode(t, b))
				require.True(t, res.Close, "the connection is closed after the answer")

				res, b = post(t, "/mcp", "application/json", env.OwnerKey, jsonBody(size), chunked)
				require.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode, "%s", b)
				require.Equal(t, "REQUEST_TOO_LARGE", envelopeCode(t, b))

				// Answers given before the body is read.
				res, b = post(t, "/api/v1/campaigns", "application/json", "", jsonBody(size), chunked)
				require.Equal(t, http.StatusUnauthorized, res.StatusCode, "%s", b)
				res, b = post(t, "/api/v1/campaigns", "text/plain", env.OwnerKey, jsonBody(size), chunked)
				require.Equal(t, http.StatusUnsupportedMediaType, res.StatusCode, "%s", b)
				res, _ = post(t, "/login", "application/x-www-form-urlencoded", "",
					[]byte(url.Values{"email": {strings.Repeat("a", size)}}.Encode()), chunked)
				require.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode)
			}
		}
	}
}

// sendThenRead writes the whole of req on a new connection to addr, then
// reads the answer.
func sendThenRead(addr string, req *http.Request) (*http.Response, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	if err := req.Write(conn); err != nil {
		_ = conn.Close()
		return nil, err
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		_ = conn.Close()
		return nil, err
	}
	res.Body = struct {
		io.Reader
		io.Closer
	}{res.Body, conn}
	return res, nil
}

// envelopeCode is the code of an error envelope body.
func envelopeCode(t *testing.T, body []byte) string {
	t.Helper()
	var env struct {
		Code string `json:"code"`
	}
	require.NoError(t, json.Unmarshal(body, &env), "%s", body)
	return env.Code
}
