package core

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/mail"
	"net/smtp"
	"net/url"
	"strings"
	"time"
)

// SMTPSender delivers email through an SMTP server, configured by URL:
//
//	smtp://user:password@smtp.example.com:587?from=Giftwell%20<no-reply@example.com>
//	smtps://user:password@smtp.example.com:465?from=no-reply@example.com
//
// smtp:// upgrades with STARTTLS when the server offers it (and then
// authenticates); smtps:// speaks TLS from the start. Credentials are
// optional. from is required.
type SMTPSender struct {
	addr     string // host:port
	host     string
	implicit bool // smtps
	auth     smtp.Auth
	from     *mail.Address
	// Timeout bounds one delivery (dial to QUIT); zero means 30 seconds.
	Timeout time.Duration
}

var _ EmailSender = (*SMTPSender)(nil)

// NewSMTPSender parses an smtp:// or smtps:// URL (see SMTPSender). It
// returns an error naming what is wrong; the error never contains the password.
func NewSMTPSender(rawURL string) (*SMTPSender, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, errors.New("smtp url: not a URL")
	}
	s := &SMTPSender{}
	port := u.Port()
	switch u.Scheme {
	case "smtp":
		if port == "" {
			port = "587"
		}
	case "smtps":
		s.implicit = true
		if port == "" {
			port = "465"
		}
	default:
		return nil, fmt.Errorf("smtp url: scheme must be smtp or smtps, not %q", u.Scheme)
	}
	s.host = u.Hostname()
	if s.host == "" {
		return nil, errors.New("smtp url: host is required")
	}
	s.addr = net.JoinHostPort(s.host, port)
	from := u.Query().Get("from")
	if from == "" {
		return nil, errors.New("smtp url: the from query parameter is required (from=no-reply@example.com)")
	}
	if s.from, err = mail.ParseAddress(from); err != nil {
		return nil, fmt.Errorf("smtp url: from: %v", err)
	}
	if u.User != nil {
		password, _ := u.User.Password()
		s.auth = smtp.PlainAuth("", u.User.Username(), password, s.host)
	}
	return s, nil
}

// Send delivers e. It refuses an address or subject with a line break
// (header injection) and returns the server's error otherwise.
func (s *SMTPSender) Send(ctx context.Context, e Email) error {
	if strings.ContainsAny(e.To, "\r\n") || strings.ContainsAny(e.Subject, "\r\n") {
		return errors.New("smtp: line break in recipient or subject")
	}
	to, err := mail.ParseAddress(e.To)
	if err != nil {
		return fmt.Errorf("smtp: recipient: %w", err)
	}
	timeout := s.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	d := net.Dialer{}
	conn, err := d.DialContext(ctx, "tcp", s.addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	}
	if s.implicit {
		conn = tls.Client(conn, &tls.Config{ServerName: s.host, MinVersion: tls.VersionTLS12})
	}
	c, err := smtp.NewClient(conn, s.host)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello("localhost"); err != nil {
		return err
	}
	if !s.implicit {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(&tls.Config{ServerName: s.host, MinVersion: tls.VersionTLS12}); err != nil {
				return err
			}
		}
	}
	if s.auth != nil {
		if err := c.Auth(s.auth); err != nil {
			return err
		}
	}
	if err := c.Mail(s.from.Address); err != nil {
		return err
	}
	if err := c.Rcpt(to.Address); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(s.message(to, e)); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

// message renders e as an RFC 5322 message with CRLF line ends.
func (s *SMTPSender) message(to *mail.Address, e Email) []byte {
	var b strings.Builder
	header := func(k, v string) { b.WriteString(k + ": " + v + "\r\n") }
	header("From", s.from.String())
	header("To", to.String())
	header("Subject", mime.QEncoding.Encode("utf-8", e.Subject))
	header("Date", time.Now().UTC().Format(time.RFC1123Z))
	header("Message-ID", "<"+RandomHex(16)+"@"+s.host+">")
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "8bit")
	b.WriteString("\r\n")
	text := strings.ReplaceAll(e.Text, "\r\n", "\n")
	// The DATA writer dot-stuffs lines itself.
	for _, line := range strings.Split(text, "\n") {
		b.WriteString(line + "\r\n")
	}
	return []byte(b.String())
}
