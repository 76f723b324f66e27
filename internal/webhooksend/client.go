// Package webhooksend dials webhook receivers for core/webhook: it is the
// Sender that makes one signed delivery attempt and the URLGuard that checks
// an endpoint's URL at registration, both refusing every address that is
// not public.
//
// The rule has two halves. At registration, CheckURL wants https and a host
// that is a public address written the usual way, or a public name (not
// localhost, a single label, .local, .internal, .arpa and the like) whose
// every address is public. At every dial, the connection's own address is
// checked by code.dny.dev/ssrf's guardian in the dialer's Control hook, so a
// name that resolved to a public address at registration and resolves to
// 127.0.0.1 now (DNS rebinding) is refused before a byte is sent. The
// operator's allowed prefixes (GIFTWELL_WEBHOOK_ALLOW_URLS, for development
// and tests) are accepted and dialled despite the rule.
//
//	c, err := webhooksend.New(webhooksend.Options{AllowPrefixes: []string{"http://127.0.0.1:9999/"}})
//	if err != nil {
//		return err
//	}
//	app.Webhooks.Sender, app.Webhooks.Guard = c, c
package webhooksend

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/giftwell/giftwell/core/webhook"
)

// The defaults of Options.
const (
	// DefaultTimeout bounds one attempt, dial to the last byte read: the
	// spec's 10 seconds.
	DefaultTimeout = 10 * time.Second
	// DefaultMaxResponseBytes is how much of a receiver's answer is read
	// (and discarded) before the connection is closed.
	DefaultMaxResponseBytes = 64 << 10
	// DefaultResolveTimeout bounds the name resolution of CheckURL.
	DefaultResolveTimeout = 3 * time.Second
)

// maxResponseHeaderBytes bounds a receiver's response headers.
const maxResponseHeaderBytes = 64 << 10

// Resolver resolves host names; *net.Resolver is one. Tests give a fake to
// simulate DNS (and DNS rebinding) without a network.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Options configure a Client. The zero value is the production setting.
type Options struct {
	// AllowPrefixes are URL prefixes (http or https, for example
	// http://127.0.0.1:9999/) accepted at registration and dialled despite
	// the public-address rule: the operator's GIFTWELL_WEBHOOK_ALLOW_URLS.
	// A URL is under a prefix when its scheme, host and port are the
	// prefix's and its path is under the prefix's path.
	AllowPrefixes []string
	// Timeout bounds one attempt; zero means DefaultTimeout.
	Timeout time.Duration
	// MaxResponseBytes bounds how much of an answer is read; zero means
	// DefaultMaxResponseBytes.
	MaxResponseBytes int64
	// ResolveTimeout bounds CheckURL's name resolution; zero means
	// DefaultResolveTimeout.
	ResolveTimeout time.Duration
	// Resolver resolves names, at registration and at dial; nil means
	// net.DefaultResolver.
	Resolver Resolver
	// TLSConfig, when set, replaces the TLS settings (the system's roots,
	// TLS 1.2 at least; a lower MinVersion is raised to 1.2). Tests set it
	// to trust their receiver's certificate.
	TLSConfig *tls.Config
}

// Client makes delivery attempts and checks endpoint URLs. It is safe for
// concurrent use and keeps connections to receivers alive between attempts.
type Client struct {
	allow          []allowPrefix
	timeout        time.Duration
	maxResponse    int64
	resolveTimeout time.Duration
	resolver       Resolver
	// guarded dials only public addresses; open dials the allowed
	// prefixes' hosts.
	guarded, open *http.Client
}

var (
	_ webhook.Sender   = (*Client)(nil)
	_ webhook.URLGuard = (*Client)(nil)
)

// New builds a Client, or says which allowed prefix is malformed.
func New(o Options) (*Client, error) {
	c := &Client{
		timeout: o.Timeout, maxResponse: o.MaxResponseBytes,
		resolveTimeout: o.ResolveTimeout, resolver: o.Resolver,
	}
	for _, s := range o.AllowPrefixes {
		p, err := parseAllowPrefix(s)
		if err != nil {
			return nil, err
		}
		c.allow = append(c.allow, p)
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.maxResponse <= 0 {
		c.maxResponse = DefaultMaxResponseBytes
	}
	if c.resolveTimeout <= 0 {
		c.resolveTimeout = DefaultResolveTimeout
	}
	if c.resolver == nil {
		c.resolver = net.DefaultResolver
	}
	c.guarded = c.httpClient(o.TLSConfig, guardControl)
	c.open = c.httpClient(o.TLSConfig, nil)
	return c, nil
}

// httpClient is an HTTP client that never uses a proxy, never follows a
// redirect, and dials through control (nil: any address).
func (c *Client) httpClient(tlsConfig *tls.Config, control func(network, address string, _ syscall.RawConn) error) *http.Client {
	if tlsConfig == nil {
		tlsConfig = &tls.Config{}
	} else {
		tlsConfig = tlsConfig.Clone()
	}
	if tlsConfig.MinVersion < tls.VersionTLS12 {
		tlsConfig.MinVersion = tls.VersionTLS12
	}
	d := &dialer{resolver: c.resolver, net: net.Dialer{Control: control, KeepAlive: 30 * time.Second}}
	return &http.Client{
		Transport: &http.Transport{
			Proxy:                  nil, // never the environment's proxy
			DialContext:            d.DialContext,
			TLSClientConfig:        tlsConfig,
			TLSHandshakeTimeout:    c.timeout,
			ForceAttemptHTTP2:      true,
			DisableCompression:     true, // the request carries exactly its header
			MaxIdleConns:           100,
			MaxIdleConnsPerHost:    webhook.MaxInFlightPerEndpoint,
			IdleConnTimeout:        90 * time.Second,
			MaxResponseHeaderBytes: maxResponseHeaderBytes,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// Send POSTs body with exactly header to rawURL (webhook.Sender), within
// the timeout, without following a redirect (a 3xx is answered as its
// status), reading at most the response bound of the answer. The error,
// when no status came back, is a short plain text without the URL (which
// may carry a token): "refused: url: must use https ..." (a URL the rule
// refuses, checked again without the network), "dial refused: 127.0.0.1
// is a loopback address, not a public address", "timed out after 10s",
// "TLS: ...", "connection refused".
func (c *Client) Send(ctx context.Context, rawURL string, header http.Header, body []byte) (int, error) {
	u, client, err := c.clientFor(rawURL)
	if err != nil {
		return 0, err
	}
	attemptCtx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(attemptCtx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return 0, errors.New("refused: " + err.Error())
	}
	req.Header = header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, c.failure(ctx, err)
	}
	defer func() { _ = resp.Body.Close() }()
	// The answer is read only so the connection may be reused; a receiver
	// that answered a status has answered, however its body ends.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, c.maxResponse))
	return resp.StatusCode, nil
}

// clientFor parses rawURL and picks the HTTP client that may dial it: the
// open one under an allowed prefix, the guarded one for a URL the rule
// (checked again without the network) lets through; an error otherwise.
func (c *Client) clientFor(rawURL string) (*url.URL, *http.Client, error) {
	u, err := parseURL(rawURL)
	if err != nil {
		return nil, nil, errors.New("refused: url: " + err.Error())
	}
	if c.allowed(u) {
		return u, c.open, nil
	}
	if _, err := checkHost(u); err != nil {
		return nil, nil, errors.New("refused: url: " + err.Error())
	}
	return u, c.guarded, nil
}

// failure is the short text of an attempt that got no status.
func (c *Client) failure(parent context.Context, err error) error {
	var refused *dialRefused
	var tlsErr *tls.CertificateVerificationError
	var opErr *net.OpError
	var recordErr tls.RecordHeaderError
	var dnsErr *net.DNSError
	var ue *url.Error
	switch {
	case errors.As(err, &refused):
		return refused
	case parent.Err() != nil:
		return errors.New("cancelled: the delivery job stopped")
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return errors.New("timed out after " + c.timeout.String())
	case errors.As(err, &tlsErr):
		return errors.New("TLS: certificate not trusted: " + clip(tlsErr.Err.Error()))
	case errors.As(err, &opErr) && opErr.Op == "remote error":
		return errors.New("TLS: the receiver ended the handshake (" + clip(opErr.Err.Error()) + ")")
	case errors.As(err, &recordErr):
		return errors.New("TLS: the receiver does not speak TLS on this port")
	case errors.As(err, &dnsErr):
		if dnsErr.IsNotFound {
			return errors.New("does not resolve: " + dnsErr.Name + ": no such host")
		}
		return errors.New("does not resolve: " + dnsErr.Name)
	case errors.Is(err, syscall.ECONNREFUSED):
		return errors.New("connection refused")
	case errors.Is(err, syscall.ECONNRESET):
		return errors.New("connection reset by the receiver")
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the receiver closed the connection without an answer")
	case errors.As(err, &ue):
		err = ue.Err // its text would repeat the URL, which may carry a token
	}
	if msg := err.Error(); strings.Contains(msg, "tls: ") {
		return errors.New("TLS: " + clip(msg))
	}
	return errors.New(clip(err.Error()))
}

// isTimeout reports whether err is a network timeout.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// clip bounds an error's text.
func clip(s string) string {
	const max = 200
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}

// dialer resolves with the Client's resolver and dials each address in
// turn through net's Control hook.
type dialer struct {
	resolver Resolver
	net      net.Dialer
}

// DialContext dials address (host:port), trying the host's addresses in
// the order resolved.
func (d *dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	p, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return nil, err
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		found, err := d.resolver.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return nil, err
		}
		for _, a := range found {
			addrs = append(addrs, a.Unmap())
		}
		if len(addrs) == 0 {
			return nil, &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
		}
	}
	var first error
	for _, a := range addrs {
		conn, err := d.net.DialContext(ctx, network, netip.AddrPortFrom(a, uint16(p)).String())
		if err == nil {
			return conn, nil
		}
		if first == nil {
			first = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, first
}

// dialRefused is the error of a dial to an address that is not public.
type dialRefused struct {
	addr netip.Addr
}

// Error says which address was refused and why.
func (e *dialRefused) Error() string { return "dial refused: " + notPublic(e.addr) }

// guardControl is the guarded dialer's Control hook: the ssrf guardian's
// check of the address actually dialled, before the connection is made.
func guardControl(network, address string, conn syscall.RawConn) error {
	if err := guardian.Safe(network, address, conn); err != nil {
		ap, perr := netip.ParseAddrPort(address)
		if perr != nil {
			return err
		}
		return &dialRefused{addr: ap.Addr()}
	}
	return nil
}
