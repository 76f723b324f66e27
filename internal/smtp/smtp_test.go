package smtp_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"mime"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	gosmtp "github.com/emersion/go-smtp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/smtp"
)

// received is one message a test server took.
type received struct {
	tls       bool
	user, pwd string
	from      string
	to        []string
	data      string
}

// server is a real SMTP server (go-smtp) on loopback that records what it
// takes, and every byte its clients send (the wire, as the server reads it).
type server struct {
	addr string
	// roots trusts the server's certificate.
	roots *x509.CertPool
	mu    sync.Mutex
	msgs  []received
	wire  bytes.Buffer
}

// serverTLS is how a test server speaks TLS.
type serverTLS int

const (
	plainOnly   serverTLS = iota // no TLS at all: STARTTLS is not offered
	startTLS                     // offers STARTTLS; AUTH only after it
	implicitTLS                  // TLS from the first byte (smtps)
)

func newServer(t *testing.T, mode serverTLS) *server {
	t.Helper()
	cert, roots := selfSigned(t)
	srv := &server{roots: roots}
	s := gosmtp.NewServer(gosmtp.BackendFunc(func(c *gosmtp.Conn) (gosmtp.Session, error) {
		_, isTLS := c.TLSConnectionState()
		return &session{srv: srv, rec: received{tls: isTLS}}, nil
	}))
	s.Domain = "localhost"
	s.ReadTimeout, s.WriteTimeout = 10*time.Second, 10*time.Second
	s.AllowInsecureAuth = mode == plainOnly // a local relay
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	var l net.Listener = recordingListener{Listener: ln, srv: srv}
	switch mode {
	case startTLS:
		s.TLSConfig = cfg
	case implicitTLS:
		l = tls.NewListener(l, cfg)
	}
	srv.addr = ln.Addr().String()
	go func() { _ = s.Serve(l) }()
	t.Cleanup(func() { _ = s.Close() })
	return srv
}

func (s *server) messages() []received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]received(nil), s.msgs...)
}

func (s *server) wireText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.wire.String()
}

// session records one message.
type session struct {
	srv *server
	rec received
}

var _ gosmtp.AuthSession = (*session)(nil)

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pwd string) error {
		s.rec.user, s.rec.pwd = user, pwd
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *gosmtp.MailOptions) error {
	s.rec.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *gosmtp.RcptOptions) error {
	s.rec.to = append(s.rec.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.rec.data = string(b)
	s.srv.mu.Lock()
	defer s.srv.mu.Unlock()
	s.srv.msgs = append(s.srv.msgs, s.rec)
	return nil
}

func (s *session) Reset() { s.rec = received{tls: s.rec.tls, user: s.rec.user, pwd: s.rec.pwd} }

func (s *session) Logout() error { return nil }

// recordingListener keeps every byte the server reads.
type recordingListener struct {
	net.Listener
	srv *server
}

func (l recordingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return recordingConn{Conn: c, srv: l.srv}, nil
}

type recordingConn struct {
	net.Conn
	srv *server
}

func (c recordingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.srv.mu.Lock()
	c.srv.wire.Write(p[:n])
	c.srv.mu.Unlock()
	return n, err
}

// selfSigned is a certificate for 127.0.0.1 and a pool that trusts it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "giftwell test smtp"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	leaf, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

// sender is a Sender for rawURL that trusts srv's certificate.
func sender(t *testing.T, srv *server, rawURL string) *smtp.Sender {
	t.Helper()
	s, err := smtp.NewSender(rawURL)
	require.NoError(t, err)
	s.TLSConfig = &tls.Config{RootCAs: srv.roots, MinVersion: tls.VersionTLS12}
	s.Timeout = 10 * time.Second
	return s
}

// invitation is the message every delivery test sends: a non-ASCII
// subject and a line starting with a dot.
var invitation = identity.Email{To: "ana@example.com", Subject: "Einladung für Ana", Text: "Hello\n.hidden dot line\nBye"}

// requireInvitation checks that rec is the invitation from Giftwell.
func requireInvitation(t *testing.T, rec received) {
	t.Helper()
	require.Equal(t, "no-reply@giftwell.test", rec.from)
	require.Equal(t, []string{"ana@example.com"}, rec.to)
	header, body, ok := strings.Cut(rec.data, "\r\n\r\n")
	require.True(t, ok, rec.data)
	header = "\r\n" + header + "\r\n"
	require.Contains(t, header, "\r\nTo: <ana@example.com>\r\n")
	require.Contains(t, header, "\r\nFrom: \"Giftwell\" <no-reply@giftwell.test>\r\n")
	var subject string
	for line := range strings.SplitSeq(header, "\r\n") {
		if v, ok := strings.CutPrefix(line, "Subject: "); ok {
			subject = v
		}
	}
	require.Equal(t, "=?UTF-8?q?Einladung_f=C3=BCr_Ana?=", subject, "the subject is encoded")
	decoded, err := new(mime.WordDecoder).DecodeHeader(subject)
	require.NoError(t, err)
	require.Equal(t, "Einladung für Ana", decoded)
	require.Contains(t, header, "Content-Type: text/plain; charset=UTF-8\r\n")
	require.Contains(t, header, "Content-Transfer-Encoding: 8bit\r\n")
	require.Equal(t, "Hello\r\n.hidden dot line\r\nBye", strings.TrimRight(body, "\r\n"))
}

func TestNewSender(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{
		"http://mail.example.com?from=a@example.com",
		"smtp://:25?from=a@example.com",
		"smtp://mail.example.com",
		"smtp://mail.example.com?from=not-an-address",
		"smtp://mail.example.com:smtp?from=a@example.com",
		"smtp://mail.example.com:70000?from=a@example.com",
		"smtp://mail.example.com?from=a@example.com&starttls=maybe",
		"smtps://mail.example.com?from=a@example.com&starttls=off",
	} {
		_, err := smtp.NewSender(bad)
		require.Error(t, err, bad)
	}
	_, err := smtp.NewSender("smtp://user:s3cret-pass@mail.example.com?from=bad")
	require.Error(t, err)
	require.NotContains(t, err.Error(), "s3cret-pass")
	for _, good := range []string{
		"smtps://mail.example.com?from=Giftwell%20%3Cno-reply@example.com%3E",
		"smtp://user:pass@mail.example.com:587?from=no-reply@example.com",
		"smtp://mail.example.com:25?from=no-reply@example.com&starttls=required",
		"smtp://mail.example.com:25?from=no-reply@example.com&starttls=opportunistic",
		"smtp://127.0.0.1:25?from=no-reply@example.com&starttls=off",
	} {
		_, err := smtp.NewSender(good)
		require.NoError(t, err, good)
	}
}

// smtp:// upgrades with STARTTLS, then authenticates and sends.
func TestSendOverSTARTTLS(t *testing.T) {
	t.Parallel()
	srv := newServer(t, startTLS)
	s := sender(t, srv, "smtp://mailer:pa55@"+srv.addr+"?from=Giftwell%20%3Cno-reply@giftwell.test%3E")
	require.NoError(t, s.Send(context.Background(), invitation))
	msgs := srv.messages()
	require.Len(t, msgs, 1)
	require.True(t, msgs[0].tls, "sent after STARTTLS")
	require.Equal(t, "mailer", msgs[0].user)
	require.Equal(t, "pa55", msgs[0].pwd)
	requireInvitation(t, msgs[0])
	require.NotContains(t, srv.wireText(), "Einladung", "nothing of the message in plain text")
}

// smtps:// speaks TLS from the first byte.
func TestSendOverImplicitTLS(t *testing.T) {
	t.Parallel()
	srv := newServer(t, implicitTLS)
	s := sender(t, srv, "smtps://mailer:pa55@"+srv.addr+"?from=Giftwell%20%3Cno-reply@giftwell.test%3E")
	require.NoError(t, s.Send(context.Background(), invitation))
	msgs := srv.messages()
	require.Len(t, msgs, 1)
	require.True(t, msgs[0].tls)
	require.Equal(t, "mailer", msgs[0].user)
	requireInvitation(t, msgs[0])
	require.NotContains(t, srv.wireText(), "EHLO", "no plain-text SMTP at all")
}

// smtp:// never falls back to plain text: a server that does not offer
// STARTTLS is refused before any credential or message is sent.
func TestRefusesServerWithoutSTARTTLS(t *testing.T) {
	t.Parallel()
	srv := newServer(t, plainOnly)
	for _, u := range []string{
		"smtp://mailer:pa55@" + srv.addr + "?from=no-reply@giftwell.test",
		"smtp://mailer:pa55@" + srv.addr + "?from=no-reply@giftwell.test&starttls=required",
	} {
		err := sender(t, srv, u).Send(context.Background(), invitation)
		require.ErrorContains(t, err, "STARTTLS", u)
		require.NotContains(t, err.Error(), "pa55")
	}
	require.Empty(t, srv.messages())
	wire := srv.wireText()
	require.Contains(t, wire, "EHLO", "the sender did talk to the server")
	for _, never := range []string{"AUTH", "MAIL FROM", "Einladung"} {
		require.NotContains(t, wire, never)
	}
}

// starttls=opportunistic and starttls=off send in plain text to a server
// without STARTTLS; the DATA lines are dot-stuffed once on the wire.
func TestSendWithoutTLSWhenTheURLSaysSo(t *testing.T) {
	t.Parallel()
	for _, setting := range []string{smtp.StartTLSOpportunistic, smtp.StartTLSOff} {
		t.Run(setting, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, plainOnly)
			// Credentials go in plain text only to the loopback address.
			s := sender(t, srv, "smtp://relay:local@"+srv.addr+"?from=Giftwell%20%3Cno-reply@giftwell.test%3E&starttls="+setting)
			require.NoError(t, s.Send(context.Background(), invitation))
			msgs := srv.messages()
			require.Len(t, msgs, 1)
			require.False(t, msgs[0].tls)
			require.Equal(t, "relay", msgs[0].user)
			requireInvitation(t, msgs[0])
			require.Contains(t, srv.wireText(), "\r\nHello\r\n..hidden dot line\r\nBye\r\n", "dot-stuffed once on the wire")
		})
	}
}

// opportunistic STARTTLS upgrades when the server offers it.
func TestOpportunisticUpgradesWhenOffered(t *testing.T) {
	t.Parallel()
	srv := newServer(t, startTLS)
	s := sender(t, srv, "smtp://"+srv.addr+"?from=Giftwell%20%3Cno-reply@giftwell.test%3E&starttls=opportunistic")
	require.NoError(t, s.Send(context.Background(), invitation))
	msgs := srv.messages()
	require.Len(t, msgs, 1)
	require.True(t, msgs[0].tls)
}

// A line break in the recipient or subject would inject headers: refused.
func TestSendRefusesHeaderInjection(t *testing.T) {
	t.Parallel()
	srv := newServer(t, startTLS)
	s := sender(t, srv, "smtp://"+srv.addr+"?from=no-reply@giftwell.test")
	require.Error(t, s.Send(context.Background(), identity.Email{To: "ana@example.com\r\nBcc: x@example.com", Subject: "x", Text: "x"}))
	require.Error(t, s.Send(context.Background(), identity.Email{To: "ana@example.com", Subject: "x\r\nBcc: x@example.com", Text: "x"}))
	require.Empty(t, srv.wireText(), "refused before connecting")
}

// An email with one-click unsubscribe carries List-Unsubscribe and
// List-Unsubscribe-Post (RFC 8058); a line break in either is refused.
func TestSendCarriesOneClickUnsubscribe(t *testing.T) {
	t.Parallel()
	srv := newServer(t, startTLS)
	s := sender(t, srv, "smtp://"+srv.addr+"?from=no-reply@giftwell.test")
	e := identity.Email{To: "ana@example.com", Subject: "3 people wait", Text: "x"}.UnsubscribeHeaders("https://giftwell.test/unsubscribe/abc.def")
	require.NoError(t, s.Send(context.Background(), e))
	msgs := srv.messages()
	require.Len(t, msgs, 1)
	require.Contains(t, msgs[0].data, "List-Unsubscribe: <https://giftwell.test/unsubscribe/abc.def>\r\n")
	require.Contains(t, msgs[0].data, "List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n")

	e.ListUnsubscribe = "<https://giftwell.test/u>\r\nBcc: x@example.com"
	require.Error(t, s.Send(context.Background(), e))
	require.Len(t, srv.messages(), 1)
}
