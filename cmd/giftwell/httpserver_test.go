package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// testLimits are small transport bounds, so that the tests see them act.
var testLimits = serverLimits{
	readHeader:     400 * time.Millisecond,
	read:           800 * time.Millisecond,
	write:          800 * time.Millisecond,
	idle:           400 * time.Millisecond,
	maxHeaderBytes: 4 << 10,
}

// limitedServer serves h under testLimits on a real listener and returns
// its address.
func limitedServer(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := newHTTPServer(h, testLimits)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String()
}

// readsBody answers with the length of the body it read, or 400.
var readsBody = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	_, _ = fmt.Fprintf(w, "%d", len(b))
})

// closedWithin reads conn until the server closes it, and fails unless that
// happens within d. Whatever the server wrote before closing is returned.
func closedWithin(t *testing.T, conn net.Conn, d time.Duration) string {
	t.Helper()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(d)))
	b, err := io.ReadAll(conn)
	var ne net.Error
	require.False(t, errors.As(err, &ne) && ne.Timeout(), "the server kept the connection open for %v", d)
	return string(b)
}

func TestDefaultServerLimitsAreSet(t *testing.T) {
	t.Parallel()
	srv := newHTTPServer(http.NotFoundHandler(), defaultServerLimits)
	for name, v := range map[string]time.Duration{
		"ReadHeaderTimeout": srv.ReadHeaderTimeout, "ReadTimeout": srv.ReadTimeout,
		"WriteTimeout": srv.WriteTimeout, "IdleTimeout": srv.IdleTimeout,
	} {
		require.Positive(t, v, name)
		require.LessOrEqual(t, v, time.Minute, name)
	}
	require.Equal(t, 64<<10, srv.MaxHeaderBytes)
}

// TestIdleKeepAliveIsClosed: a keep-alive connection left idle after its
// answer is closed after IdleTimeout.
func TestIdleKeepAliveIsClosed(t *testing.T) {
	t.Parallel()
	addr := limitedServer(t, readsBody)
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	require.NoError(t, err)
	require.NoError(t, res.Body.Close())
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.False(t, res.Close, "kept alive")

	start := time.Now()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	_, err = br.ReadByte()
	require.ErrorIs(t, err, io.EOF, "the server closed the idle connection")
	require.GreaterOrEqual(t, time.Since(start), testLimits.idle/2)
}

// TestSlowBodyIsCut: a body sent one byte at a time, slower than
// ReadTimeout allows, is cut instead of being waited for.
func TestSlowBodyIsCut(t *testing.T) {
	t.Parallel()
	addr := limitedServer(t, readsBody)
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n")
	require.NoError(t, err)
	// One byte every 300 ms would take 30 s; the server gives up first.
	go func() {
		for range 100 {
			if _, err := conn.Write([]byte("x")); err != nil {
				return
			}
			time.Sleep(300 * time.Millisecond)
		}
	}()
	got := closedWithin(t, conn, 10*time.Second)
	require.NotContains(t, got, "\r\n\r\n100", "the whole body was never read")
}

// TestSlowHeadersAreCut: headers sent one byte at a time (25 s in all) are
// cut after ReadHeaderTimeout, with at most a 400 and never the handler's
// answer.
func TestSlowHeadersAreCut(t *testing.T) {
	t.Parallel()
	addr := limitedServer(t, readsBody)
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	go func() {
		for _, c := range []byte("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + strings.Repeat("s", 100) + "\r\n\r\n") {
			if _, err := conn.Write([]byte{c}); err != nil {
				return
			}
			time.Sleep(200 * time.Millisecond)
		}
	}()
	got := closedWithin(t, conn, 10*time.Second)
	require.NotContains(t, got, "200 OK")
	if got != "" {
		require.True(t, strings.HasPrefix(got, "HTTP/1.1 400 "), "%s", got)
	}
}

// TestSlowHandlerIsCutAtWriteTimeout: an answer not written within
// WriteTimeout does not reach the client; the connection is closed.
func TestSlowHandlerIsCutAtWriteTimeout(t *testing.T) {
	t.Parallel()
	addr := limitedServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(3 * testLimits.write):
		case <-r.Context().Done():
		}
		_, _ = io.WriteString(w, "late")
	}))
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)
	require.NotContains(t, closedWithin(t, conn, 10*time.Second), "late")
}

// TestLargeHeadersAre431: headers over MaxHeaderBytes are refused.
func TestLargeHeadersAre431(t *testing.T) {
	t.Parallel()
	addr := limitedServer(t, readsBody)
	req, err := http.NewRequest(http.MethodGet, "http://"+addr+"/", nil)
	require.NoError(t, err)
	req.Header.Set("X-Big", strings.Repeat("b", 16<<10))
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	require.NoError(t, res.Body.Close())
	require.Equal(t, http.StatusRequestHeaderFieldsTooLarge, res.StatusCode)
}
