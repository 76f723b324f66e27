package webhooksend_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/webhooksend"
)

// delivery is a header and body as core/webhook sends them.
func delivery() (http.Header, []byte) {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "Giftwell-Webhooks/1")
	h.Set("X-Giftwell-Event-Id", "evt_123")
	h.Set("X-Giftwell-Signature", "t=1700000000,v1=abc")
	return h, []byte(`{"id":"evt_123","type":"send.created"}`)
}

// allowing is a Client that allows srv's URL, with o's other settings.
func allowing(t *testing.T, srvURL string, o webhooksend.Options) *webhooksend.Client {
	t.Helper()
	o.AllowPrefixes = append(o.AllowPrefixes, srvURL+"/")
	c, err := webhooksend.New(o)
	require.NoError(t, err)
	return c
}

// countingListener is a TCP listener on 127.0.0.1 that counts the
// connections it accepts and closes them.
func countingListener(t *testing.T) (addr string, accepted *atomic.Int32) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = l.Close() })
	accepted = &atomic.Int32{}
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			_ = conn.Close()
		}
	}()
	return l.Addr().String(), accepted
}

// The request is a POST with exactly the header given (and the length Go
// adds) and the body; the caller's header is not changed.
func TestSendCarriesTheHeaderAndBody(t *testing.T) {
	t.Parallel()
	got := make(chan *http.Request, 1)
	gotBody := make(chan []byte, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- r
		gotBody <- b
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	c := allowing(t, srv.URL, webhooksend.Options{})
	header, body := delivery()
	before := header.Clone()

	status, err := c.Send(context.Background(), srv.URL+"/hooks?token=s3cret", header, body)
	require.NoError(t, err)
	require.Equal(t, http.StatusNoContent, status)
	r := <-got
	require.Equal(t, http.MethodPost, r.Method)
	require.Equal(t, "/hooks?token=s3cret", r.URL.RequestURI())
	require.Equal(t, body, <-gotBody)
	for k, v := range header {
		require.Equal(t, v, r.Header.Values(k), k)
	}
	for k := range r.Header {
		require.True(t, k == "Content-Length" || header.Get(k) != "", "unexpected header %s: %q", k, r.Header.Get(k))
	}
	require.Equal(t, before, header)
}

// A 500 comes back as its status, without an error.
func TestSendAnswers500(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	}))
	defer srv.Close()
	header, body := delivery()
	status, err := allowing(t, srv.URL, webhooksend.Options{}).Send(context.Background(), srv.URL+"/", header, body)
	require.NoError(t, err)
	require.Equal(t, http.StatusInternalServerError, status)
}

// A redirect is answered as its status and never followed, whatever its
// code and target.
func TestSendDoesNotFollowRedirects(t *testing.T) {
	t.Parallel()
	var targetHits atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		targetHits.Add(1)
	}))
	defer target.Close()
	for _, code := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target.URL+"/elsewhere", code)
		}))
		c := allowing(t, srv.URL, webhooksend.Options{AllowPrefixes: []string{target.URL + "/"}})
		header, body := delivery()
		status, err := c.Send(context.Background(), srv.URL+"/", header, body)
		srv.Close()
		require.NoError(t, err, code)
		require.Equal(t, code, status)
	}
	require.Zero(t, targetHits.Load(), "a redirect was followed")
}

// A receiver that does not answer within the timeout is a timeout.
func TestSendTimesOut(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	c := allowing(t, srv.URL, webhooksend.Options{Timeout: 200 * time.Millisecond})
	header, body := delivery()
	start := time.Now()
	status, err := c.Send(context.Background(), srv.URL+"/", header, body)
	require.EqualError(t, err, "timed out after 200ms")
	require.Zero(t, status)
	require.Less(t, time.Since(start), 5*time.Second)
}

// A receiver that answers without end is read only up to the bound: the
// status comes back and the connection is closed.
func TestSendBoundsTheAnswer(t *testing.T) {
	t.Parallel()
	const endless = 1 << 30
	written := make(chan int64, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		chunk := []byte(strings.Repeat("x", 32<<10))
		var n int64
		for n < endless {
			m, err := w.Write(chunk)
			n += int64(m)
			if err != nil {
				break
			}
		}
		written <- n
	}))
	defer srv.Close()
	c := allowing(t, srv.URL, webhooksend.Options{MaxResponseBytes: 4 << 10})
	header, body := delivery()
	status, err := c.Send(context.Background(), srv.URL+"/", header, body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, status)
	select {
	case n := <-written:
		require.Less(t, n, int64(64<<20), "the answer was read far past the bound")
	case <-time.After(30 * time.Second):
		t.Fatal("the receiver is still writing: the connection was not closed")
	}
}

// A name that resolved to a public address at registration and resolves
// to 127.0.0.1 at the dial (DNS rebinding) is refused by the dialer's
// guard: no connection is made.
func TestSendRefusesRebinding(t *testing.T) {
	t.Parallel()
	addr, accepted := countingListener(t)
	_, port, err := net.SplitHostPort(addr)
	require.NoError(t, err)
	dns := newFakeDNS(nil)
	dns.set("rebind.example.com", "93.184.215.14", "127.0.0.1")
	dns.set("mixed.example.com", "127.0.0.1,::1,10.1.2.3")
	c, err := webhooksend.New(webhooksend.Options{Resolver: dns})
	require.NoError(t, err)
	url := "https://rebind.example.com:" + port + "/hook"
	require.NoError(t, c.CheckURL(context.Background(), url))

	header, body := delivery()
	status, err := c.Send(context.Background(), url, header, body)
	require.EqualError(t, err, "dial refused: 127.0.0.1 is a loopback address, not a public address")
	require.Zero(t, status)

	_, err = c.Send(context.Background(), "https://mixed.example.com:"+port+"/hook", header, body)
	require.EqualError(t, err, "dial refused: 127.0.0.1 is a loopback address, not a public address")
	require.Zero(t, accepted.Load(), "a connection reached the loopback listener")
}

// A URL the rule refuses is refused at the dial too, before any
// connection, even if it was stored when the operator allowed it.
func TestSendRefusesWhatTheRuleRefuses(t *testing.T) {
	t.Parallel()
	addr, accepted := countingListener(t)
	_, port, err := net.SplitHostPort(addr)
	require.NoError(t, err)
	c, err := webhooksend.New(webhooksend.Options{Resolver: newFakeDNS(nil)})
	require.NoError(t, err)
	header, body := delivery()
	for url, want := range map[string]string{
		"http://" + addr + "/":               "refused: url: must use https (http:// is not accepted)",
		"https://" + addr + "/":              "refused: url: 127.0.0.1 is a loopback address, not a public address",
		"https://[::ffff:127.0.0.1]:" + port: "refused: url: ::ffff:127.0.0.1 is an IPv4-mapped IPv6 address embedding 127.0.0.1, a loopback address, not a public address",
		"https://2130706433:" + port + "/":   "refused: url: 2130706433 is 127.0.0.1 written another way, a loopback address, not a public address",
		"https://localhost:" + port + "/":    "refused: url: localhost is a single-label name, which names a host on a local network, not a public one",
		"https://u:p@" + addr + "/":          "refused: url: must not carry a user name or password; deliveries are authenticated by their signature",
	} {
		status, err := c.Send(context.Background(), url, header, body)
		require.EqualError(t, err, want, url)
		require.Zero(t, status)
	}
	require.Zero(t, accepted.Load())
}

// TLS: an untrusted certificate and an old protocol are refused with a
// "TLS:" error; a trusted one delivers.
func TestSendTLS(t *testing.T) {
	t.Parallel()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	defer srv.Close()
	header, body := delivery()

	status, err := allowing(t, srv.URL, webhooksend.Options{}).Send(context.Background(), srv.URL+"/", header, body)
	require.Error(t, err)
	require.True(t, strings.HasPrefix(err.Error(), "TLS: "), err.Error())
	require.Zero(t, status)

	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	trusting := allowing(t, srv.URL, webhooksend.Options{TLSConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS10}})
	status, err = trusting.Send(context.Background(), srv.URL+"/", header, body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, status)

	old := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	old.TLS = &tls.Config{MaxVersion: tls.VersionTLS11}
	old.Config.ErrorLog = log.New(io.Discard, "", 0)
	old.StartTLS()
	defer old.Close()
	roots.AddCert(old.Certificate())
	_, err = allowing(t, old.URL, webhooksend.Options{TLSConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS10}}).
		Send(context.Background(), old.URL+"/", header, body)
	require.Error(t, err)
	require.True(t, strings.HasPrefix(err.Error(), "TLS: "), err.Error())
	t.Log(err)
}

// A receiver that is not there is "connection refused".
func TestSendConnectionRefused(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	header, body := delivery()
	_, err = allowing(t, "http://"+addr, webhooksend.Options{}).Send(context.Background(), "http://"+addr+"/", header, body)
	require.EqualError(t, err, "connection refused")
}

// A malformed allowed prefix is refused by New.
func TestNewRefusesMalformedPrefixes(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"127.0.0.1:9999", "ftp://127.0.0.1/", "http://u:p@127.0.0.1/", "http://127.0.0.1/?a=b", "http://127.0.0.1/a/../b", "http:///x"} {
		_, err := webhooksend.New(webhooksend.Options{AllowPrefixes: []string{p}})
		require.Error(t, err, p)
	}
}
