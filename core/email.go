package core

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/sql/db"
)

// PrefixEmail starts the ID of an email_outbox row.
const PrefixEmail = "eml_"

// Email is one plain-text message to one address.
type Email struct {
	To      string
	Subject string
	Text    string
}

// EmailSender delivers an email. Giftwell never sends mail in a request:
// services queue it in the outbox and DeliverEmails hands it to a sender.
type EmailSender interface {
	Send(ctx context.Context, e Email) error
}

// LogSender is the default EmailSender when no SMTP server is configured:
// it writes each email, body included, to the log, so that a person running
// Giftwell locally can copy an invitation link from it.
type LogSender struct {
	Log *slog.Logger
}

var _ EmailSender = LogSender{}

// Send logs the email at Info level and always succeeds.
func (s LogSender) Send(ctx context.Context, e Email) error {
	log := s.Log
	if log == nil {
		log = slog.Default()
	}
	log.InfoContext(ctx, "email (no SMTP server configured; logged instead of sent)",
		slog.String("to", e.To), slog.String("subject", e.Subject), slog.String("text", e.Text))
	return nil
}

// Outbox delivery bounds.
const (
	// EmailMaxAttempts is how often delivery of one email is tried before
	// it is marked failed.
	EmailMaxAttempts = 5
	// emailBatch is the most emails one DeliverEmails call sends.
	emailBatch = 50
)

// emailRetryDelay is the wait after the n-th failed attempt (n >= 1).
func emailRetryDelay(n int32) time.Duration {
	switch n {
	case 1:
		return time.Minute
	case 2:
		return 5 * time.Minute
	case 3:
		return 30 * time.Minute
	}
	return 2 * time.Hour
}

// queueEmail writes e to the outbox in the caller's transaction, so that it
// is sent exactly when the change it reports commits.
func (a *App) queueEmail(ctx context.Context, tx pgx.Tx, workspaceID string, e Email) error {
	var ws *string
	if workspaceID != "" {
		ws = &workspaceID
	}
	if err := db.New(tx).EmailOutboxInsert(ctx, db.EmailOutboxInsertParams{
		ID: NewID(PrefixEmail), WorkspaceID: ws, ToAddress: e.To, Subject: e.Subject, Body: e.Text, CreatedAt: a.Clock.Now(),
	}); err != nil {
		return Internal(err)
	}
	return nil
}

// DeliverEmails sends the outbox's due emails through sender, up to 50 per
// call, one transaction each: the row is locked with SKIP LOCKED, so
// several instances of the service never send the same email twice at once.
// A sent email is marked sent and its body cleared; a failed one is retried
// after 1, 5 and 30 minutes and then every 2 hours, and marked failed (body
// cleared) after EmailMaxAttempts attempts. It returns how many emails were
// sent, and INTERNAL_ERROR when the database fails (a sender's error is
// recorded on the row and logged, not returned).
func (a *App) DeliverEmails(ctx context.Context, sender EmailSender) (int, error) {
	sent := 0
	for range emailBatch {
		done := false
		err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
			q := db.New(tx)
			now := a.Clock.Now()
			row, err := q.EmailOutboxClaim(ctx, now)
			if isNoRows(err) {
				done = true
				return nil
			}
			if err != nil {
				return Internal(err)
			}
			sendErr := sender.Send(ctx, Email{To: row.ToAddress, Subject: row.Subject, Text: row.Body})
			if sendErr == nil {
				sent++
				return q.EmailOutboxMarkSent(ctx, db.EmailOutboxMarkSentParams{Now: now, ID: row.ID})
			}
			attempts := row.Attempts + 1
			giveUp := attempts >= EmailMaxAttempts
			a.Log.WarnContext(ctx, "email delivery failed", slog.String("email_id", row.ID),
				slog.Int("attempt", int(attempts)), slog.Bool("given_up", giveUp), slog.Any("err", sendErr))
			msg := sendErr.Error()
			if len(msg) > 1000 {
				msg = msg[:1000]
			}
			return q.EmailOutboxMarkFailed(ctx, db.EmailOutboxMarkFailedParams{
				LastError: msg, NextAttemptAt: now.Add(emailRetryDelay(attempts)), GiveUp: giveUp, ID: row.ID,
			})
		})
		if err != nil {
			return sent, asCoreError(err)
		}
		if done {
			break
		}
	}
	return sent, nil
}
