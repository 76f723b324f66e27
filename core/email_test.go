package core_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

func TestDeliverEmailsRetriesThenGivesUp(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	_, owner := env.SignIn(t, env.OwnerEmail)
	_, err := env.App.InviteTeamMember(ctx, owner, core.InviteParams{Email: apptest.UniqueEmail("a"), Role: core.RoleMember})
	require.NoError(t, err)

	box := &outbox{fail: errors.New("mailbox unavailable")}
	waits := []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour}
	for attempt := range core.EmailMaxAttempts {
		n, err := env.App.DeliverEmails(ctx, box)
		require.NoError(t, err)
		require.Zero(t, n)
		require.Len(t, box.sent, attempt+1)
		n, err = env.App.DeliverEmails(ctx, box)
		require.NoError(t, err)
		require.Len(t, box.sent, attempt+1, "not due yet")
		if attempt < len(waits) {
			env.Clock.Advance(waits[attempt])
		}
	}
	env.Clock.Advance(24 * time.Hour)
	_, err = env.App.DeliverEmails(ctx, box)
	require.NoError(t, err)
	require.Len(t, box.sent, core.EmailMaxAttempts, "given up")

	rows, err := db.New(env.App.DB).EmailOutboxListByWorkspace(ctx, &env.WorkspaceID)
	require.NoError(t, err)
	require.Len(t, rows, 1)
	require.Equal(t, "failed", rows[0].State)
	require.EqualValues(t, core.EmailMaxAttempts, rows[0].Attempts)
	require.Equal(t, "mailbox unavailable", rows[0].LastError)
	require.Empty(t, rows[0].Body, "the link is not kept")

	// A sent email's body is cleared too.
	_, err = env.App.InviteTeamMember(ctx, owner, core.InviteParams{Email: apptest.UniqueEmail("b"), Role: core.RoleMember})
	require.NoError(t, err)
	n, err := env.App.DeliverEmails(ctx, &outbox{})
	require.NoError(t, err)
	require.Equal(t, 1, n)
	rows, err = db.New(env.App.DB).EmailOutboxListByWorkspace(ctx, &env.WorkspaceID)
	require.NoError(t, err)
	require.Equal(t, "sent", rows[1].State)
	require.Empty(t, rows[1].Body)
	require.NotNil(t, rows[1].SentAt)
}

func TestNewSMTPSender(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{
		"http://mail.example.com?from=a@example.com",
		"smtp://:25?from=a@example.com",
		"smtp://mail.example.com",
		"smtp://mail.example.com?from=not-an-address",
	} {
		_, err := core.NewSMTPSender(bad)
		require.Error(t, err, bad)
	}
	_, err := core.NewSMTPSender("smtp://user:s3cret-pass@mail.example.com?from=bad")
	require.Error(t, err)
	require.NotContains(t, err.Error(), "s3cret-pass")
	_, err = core.NewSMTPSender("smtps://mail.example.com?from=Giftwell%20%3Cno-reply@example.com%3E")
	require.NoError(t, err)
}

// TestSMTPSenderDelivers speaks SMTP with a minimal fake server on loopback
// (where net/smtp allows PLAIN authentication without TLS).
func TestSMTPSenderDelivers(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	type received struct{ auth, from, to, data string }
	got := make(chan received, 1)
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		r := bufio.NewReader(conn)
		say := func(s string) { _, _ = conn.Write([]byte(s + "\r\n")) }
		var rec received
		say("220 fake ESMTP")
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\r\n")
			cmd := strings.ToUpper(strings.SplitN(line, " ", 2)[0])
			switch cmd {
			case "EHLO":
				say("250-fake")
				say("250 AUTH PLAIN")
			case "AUTH":
				raw, _ := base64.StdEncoding.DecodeString(strings.Fields(line)[2])
				rec.auth = string(raw)
				say("235 ok")
			case "MAIL":
				rec.from = line
				say("250 ok")
			case "RCPT":
				rec.to = line
				say("250 ok")
			case "DATA":
				say("354 go on")
				var b strings.Builder
				for {
					l, err := r.ReadString('\n')
					if err != nil || l == ".\r\n" {
						break
					}
					b.WriteString(l)
				}
				rec.data = b.String()
				say("250 queued")
			case "QUIT":
				say("221 bye")
				got <- rec
				return
			default:
				say("250 ok")
			}
		}
	}()

	s, err := core.NewSMTPSender("smtp://mailer:pa55@" + ln.Addr().String() + "?from=Giftwell%20%3Cno-reply@giftwell.test%3E")
	require.NoError(t, err)
	err = s.Send(context.Background(), core.Email{To: "ana@example.com", Subject: "Einladung für Ana", Text: "Hello\n.hidden dot line\nBye"})
	require.NoError(t, err)
	rec := <-got
	require.Equal(t, "\x00mailer\x00pa55", rec.auth)
	require.Equal(t, "MAIL FROM:<no-reply@giftwell.test>", strings.SplitN(rec.from, " BODY", 2)[0])
	require.Equal(t, "RCPT TO:<ana@example.com>", rec.to)
	require.Contains(t, rec.data, "To: <ana@example.com>\r\n")
	require.Contains(t, rec.data, "Subject: =?utf-8?q?Einladung_f=C3=BCr_Ana?=\r\n")
	require.Contains(t, rec.data, "\r\n\r\nHello\r\n..hidden dot line\r\nBye\r\n", "dot-stuffed once on the wire")

	require.Error(t, s.Send(context.Background(), core.Email{To: "ana@example.com\r\nBcc: x@example.com", Subject: "x", Text: "x"}))
}
