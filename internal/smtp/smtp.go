// Package smtp delivers Giftwell's email (core.EmailSender) through an SMTP
// server, with github.com/wneessen/go-mail. A Sender is configured by URL:
//
//	smtp://user:password@smtp.example.com:587?from=Giftwell%20<no-reply@example.com>
//	smtps://user:password@smtp.example.com:465?from=no-reply@example.com
//	smtp://127.0.0.1:25?from=no-reply@example.com&starttls=off
//
// smtp:// (port 587 by default) requires STARTTLS: a server that does not
// offer it is refused, and nothing is sent in plain text. The starttls
// query parameter says otherwise: starttls=opportunistic upgrades when the
// server offers STARTTLS and sends in plain text when it does not;
// starttls=off never upgrades (a relay on the same host). starttls=required
// is the default, spelled out. smtps:// (port 465 by default) speaks TLS from
// the start and takes no starttls parameter. Certificates are verified
// against the system's roots.
//
// Credentials are optional. They are sent (AUTH PLAIN) only over TLS or to
// a server on the loopback address, never in plain text over a network.
// from, the sender's address (with an optional display name), is required.
// One delivery, from dial to QUIT, takes at most 30 seconds.
//
//	sender, err := smtp.NewSender(os.Getenv("GIFTWELL_SMTP_URL"))
//	if err != nil {
//		return err
//	}
//	err = sender.Send(ctx, core.Email{To: "ana@example.com", Subject: "Hello", Text: "..."})
package smtp

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	netmail "net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/wneessen/go-mail"

	"github.com/giftwell/giftwell/core/identity"
)

// DefaultTimeout bounds one delivery when Sender.Timeout is zero.
const DefaultTimeout = 30 * time.Second

// STARTTLS settings of an smtp:// URL (its starttls query parameter).
const (
	// StartTLSRequired refuses a server without STARTTLS (the default).
	StartTLSRequired = "required"
	// StartTLSOpportunistic upgrades when offered, else sends in plain text.
	StartTLSOpportunistic = "opportunistic"
	// StartTLSOff never upgrades: for a relay on the same host.
	StartTLSOff = "off"
)

// Sender delivers email through one SMTP server (see the package doc for
// its URL). It is safe for concurrent use: each Send opens its own
// connection.
type Sender struct {
	host     string
	port     int
	implicit bool // smtps://
	policy   mail.TLSPolicy
	username string
	password string
	from     *netmail.Address
	// Timeout bounds one delivery (dial to QUIT); zero means DefaultTimeout.
	Timeout time.Duration
	// TLSConfig, when set, replaces the TLS settings of STARTTLS and smtps
	// (the system's roots, TLS 1.2 at least); an empty ServerName is the
	// URL's host. Tests set it to trust their server's certificate.
	TLSConfig *tls.Config
}

var _ identity.EmailSender = (*Sender)(nil)

// NewSender parses an smtp:// or smtps:// URL (see the package doc). It
// returns an error naming what is wrong; the error never contains the
// password.
func NewSender(rawURL string) (*Sender, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, errors.New("smtp url: not a URL")
	}
	s := &Sender{policy: mail.TLSMandatory}
	query := u.Query()
	port := u.Port()
	switch u.Scheme {
	case "smtp":
		if port == "" {
			port = "587"
		}
		switch v := query.Get("starttls"); v {
		case "", StartTLSRequired:
		case StartTLSOpportunistic:
			s.policy = mail.TLSOpportunistic
		case StartTLSOff:
			s.policy = mail.NoTLS
		default:
			return nil, fmt.Errorf("smtp url: starttls must be %s, %s or %s, not %q", StartTLSRequired, StartTLSOpportunistic, StartTLSOff, v)
		}
	case "smtps":
		s.implicit = true
		if port == "" {
			port = "465"
		}
		if query.Has("starttls") {
			return nil, errors.New("smtp url: smtps:// speaks TLS from the start and takes no starttls parameter")
		}
	default:
		return nil, fmt.Errorf("smtp url: scheme must be smtp or smtps, not %q", u.Scheme)
	}
	s.host = u.Hostname()
	if s.host == "" {
		return nil, errors.New("smtp url: host is required")
	}
	if s.port, err = strconv.Atoi(port); err != nil || s.port < 1 || s.port > 65535 {
		return nil, fmt.Errorf("smtp url: port must be a number from 1 to 65535, not %q", port)
	}
	from := query.Get("from")
	if from == "" {
		return nil, errors.New("smtp url: the from query parameter is required (from=no-reply@example.com)")
	}
	if s.from, err = netmail.ParseAddress(from); err != nil {
		return nil, fmt.Errorf("smtp url: from: %v", err)
	}
	if u.User != nil {
		s.username = u.User.Username()
		s.password, _ = u.User.Password()
	}
	return s, nil
}

// Send delivers e as a plain-text UTF-8 message. It refuses an address or
// subject with a line break (header injection), and returns the server's
// or the connection's error otherwise: for smtp:// without starttls=...,
// also a server that does not offer STARTTLS.
func (s *Sender) Send(ctx context.Context, e identity.Email) error {
	if strings.ContainsAny(e.To+e.Subject+e.ListUnsubscribe+e.ListUnsubscribePost, "\r\n") {
		return errors.New("smtp: line break in recipient, subject or header")
	}
	to, err := netmail.ParseAddress(e.To)
	if err != nil {
		return fmt.Errorf("smtp: recipient: %w", err)
	}
	m := mail.NewMsg(mail.WithEncoding(mail.NoEncoding), mail.WithCharset(mail.CharsetUTF8))
	if err := m.FromFormat(s.from.Name, s.from.Address); err != nil {
		return fmt.Errorf("smtp: from: %w", err)
	}
	if err := m.AddToFormat(to.Name, to.Address); err != nil {
		return fmt.Errorf("smtp: recipient: %w", err)
	}
	m.Subject(e.Subject)
	if e.ListUnsubscribe != "" {
		m.SetGenHeader(mail.HeaderListUnsubscribe, e.ListUnsubscribe)
		if e.ListUnsubscribePost != "" {
			m.SetGenHeader(mail.HeaderListUnsubscribePost, e.ListUnsubscribePost)
		}
	}
	m.SetBodyString(mail.TypeTextPlain, strings.ReplaceAll(e.Text, "\r\n", "\n"))

	timeout := s.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c, err := mail.NewClient(s.host, s.options(timeout)...)
	if err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	if err := c.DialAndSendWithContext(ctx, m); err != nil {
		return fmt.Errorf("smtp: %s:%d: %w", s.host, s.port, err)
	}
	return nil
}

// options are the go-mail client options of one delivery.
func (s *Sender) options(timeout time.Duration) []mail.Option {
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if s.TLSConfig != nil {
		tc = s.TLSConfig.Clone()
	}
	if tc.ServerName == "" {
		tc.ServerName = s.host
	}
	opts := []mail.Option{
		mail.WithTimeout(timeout),
		mail.WithTLSConfig(tc),
	}
	if s.implicit {
		opts = append(opts, mail.WithSSL())
	} else {
		opts = append(opts, mail.WithTLSPolicy(s.policy))
	}
	opts = append(opts, mail.WithPort(s.port))
	if s.username != "" {
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthPlain), mail.WithUsername(s.username), mail.WithPassword(s.password))
	}
	return opts
}
