package identity

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// PrefixEmail starts the ID of an email_outbox row.
const PrefixEmail = "eml_"

// Email is one plain-text message to one address.
type Email struct {
	To      string
	Subject string
	Text    string
	// ListUnsubscribe, when set, is the List-Unsubscribe header's value
	// (RFC 2369), such as "<https://.../unsubscribe/TOKEN>".
	ListUnsubscribe string
	// ListUnsubscribePost, when set, is the List-Unsubscribe-Post header's
	// value (RFC 8058): "List-Unsubscribe=One-Click".
	ListUnsubscribePost string
}

// OneClickUnsubscribe is the List-Unsubscribe-Post value of RFC 8058.
const OneClickUnsubscribe = "List-Unsubscribe=One-Click"

// UnsubscribeHeaders returns e with the one-click unsubscribe headers of
// RFC 8058 for link, an HTTPS (or, for a local site, HTTP) address that
// takes a POST.
func (e Email) UnsubscribeHeaders(link string) Email {
	e.ListUnsubscribe = "<" + link + ">"
	e.ListUnsubscribePost = OneClickUnsubscribe
	return e
}

// EmailSender delivers an email. Giftwell never sends mail in a request:
// services queue it in the outbox with its delivery job, and
// DeliverEmailWorker hands it to a sender (internal/smtp, or LogSender).
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
	attrs := []any{slog.String("to", e.To), slog.String("subject", e.Subject), slog.String("text", e.Text)}
	if e.ListUnsubscribe != "" {
		attrs = append(attrs, slog.String("list_unsubscribe", e.ListUnsubscribe))
	}
	log.InfoContext(ctx, "email (no SMTP server configured; logged instead of sent)", attrs...)
	return nil
}

// EmailMaxAttempts is how often delivery of one email is tried before it
// is given up (marked failed, body cleared): the MaxAttempts of its job.
const EmailMaxAttempts = 5

// emailRetryDelay is the wait after the n-th failed attempt (n >= 1): 1, 5
// and 30 minutes, then every 2 hours.
func emailRetryDelay(n int) time.Duration {
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

// DeliverEmailArgs is the River job that sends one queued email. It
// carries the email's ID only: the body, which may hold an invitation
// link, stays in the email_outbox row and is cleared once the email is
// sent or given up, so no secret is ever stored in river_job.
type DeliverEmailArgs struct {
	EmailID string `json:"email_id" river:"unique"`
}

// Kind names the job.
func (DeliverEmailArgs) Kind() string { return "deliver_email" }

// emailJobOpts are the insert options of a DeliverEmailArgs job: at most
// EmailMaxAttempts attempts, and one unfinished job per email.
func emailJobOpts() *river.InsertOpts {
	return &river.InsertOpts{
		MaxAttempts: EmailMaxAttempts,
		UniqueOpts:  river.UniqueOpts{ByArgs: true, ByState: core.UnfinishedJobStates()},
	}
}

// QueueEmail writes e to the outbox and inserts its delivery job in the
// caller's transaction tx, so that it is sent exactly when the change it
// reports commits: how subjects above identity (core/notify) send email.
// It returns INTERNAL_ERROR when the database fails.
func (a *Service) QueueEmail(ctx context.Context, tx pgx.Tx, workspaceID string, e Email) error {
	return a.queueEmail(ctx, tx, workspaceID, e)
}

// queueEmail writes e to the outbox and inserts its delivery job in the
// caller's transaction, so that it is sent exactly when the change it
// reports commits.
func (a *Service) queueEmail(ctx context.Context, tx pgx.Tx, workspaceID string, e Email) error {
	var ws *string
	if workspaceID != "" {
		ws = &workspaceID
	}
	id := core.NewID(PrefixEmail)
	if err := db.New(tx).EmailOutboxInsert(ctx, db.EmailOutboxInsertParams{
		ID: id, WorkspaceID: ws, ToAddress: e.To, Subject: e.Subject, Body: e.Text, CreatedAt: a.Clock.Now(),
		ListUnsubscribe: e.ListUnsubscribe, ListUnsubscribePost: e.ListUnsubscribePost,
	}); err != nil {
		return core.Internal(err)
	}
	_, err := a.InsertJob(ctx, tx, DeliverEmailArgs{EmailID: id}, emailJobOpts())
	return err
}

// DeliverEmailWorker sends the email of a DeliverEmailArgs job through
// Sender. It holds no transaction or lock while the sender talks to the
// mail server: it reads the email, sends it, then records the outcome in
// one short statement. A sent email is marked sent and its body cleared;
// a failed attempt is recorded and retried after 1, 5 and 30 minutes and
// then every 2 hours (NextRetry); the last of EmailMaxAttempts attempts
// marks it failed, body cleared. River delivers a job at least once: an
// email already sent or given up is not sent again.
type DeliverEmailWorker struct {
	river.WorkerDefaults[DeliverEmailArgs]
	Identity *Service
	Sender   EmailSender
}

var _ river.Worker[DeliverEmailArgs] = (*DeliverEmailWorker)(nil)

// NextRetry is the email retry schedule: 1, 5 and 30 minutes after the
// failed attempt, then every 2 hours.
func (w *DeliverEmailWorker) NextRetry(job *river.Job[DeliverEmailArgs]) time.Time {
	return emailNextAttempt(job.JobRow)
}

// emailNextAttempt is when River tries job again after its current attempt fails.
func emailNextAttempt(job *rivertype.JobRow) time.Time {
	from := time.Now()
	if job.AttemptedAt != nil {
		from = *job.AttemptedAt
	}
	return from.Add(emailRetryDelay(job.Attempt)).UTC()
}

// Work sends the job's email once. It returns the sender's error (River
// retries it) or INTERNAL_ERROR when the database fails.
func (w *DeliverEmailWorker) Work(ctx context.Context, job *river.Job[DeliverEmailArgs]) error {
	return w.Identity.deliverEmail(ctx, w.Sender, job.JobRow, job.Args.EmailID)
}

// deliverEmail sends email id for attempt job of its delivery job.
func (a *Service) deliverEmail(ctx context.Context, sender EmailSender, job *rivertype.JobRow, id string) error {
	q := db.New(a.DB)
	row, err := q.EmailOutboxGet(ctx, id)
	if core.IsNoRows(err) {
		return nil // removed with its workspace
	}
	if err != nil {
		return core.Internal(err)
	}
	if row.State != emailPending {
		return nil // sent or given up already
	}
	sendErr := sender.Send(ctx, Email{To: row.ToAddress, Subject: row.Subject, Text: row.Body,
		ListUnsubscribe: row.ListUnsubscribe, ListUnsubscribePost: row.ListUnsubscribePost})
	if sendErr == nil {
		if err := q.EmailOutboxMarkSent(ctx, db.EmailOutboxMarkSentParams{Now: a.Clock.Now(), ID: id}); err != nil {
			return core.Internal(err)
		}
		return nil
	}
	giveUp := job.Attempt >= job.MaxAttempts
	a.Log.WarnContext(ctx, "email delivery failed", slog.String("email_id", id),
		slog.Int("attempt", job.Attempt), slog.Bool("given_up", giveUp), slog.Any("err", sendErr))
	msg := sendErr.Error()
	if len(msg) > 1000 {
		// A cut inside a character would be bytes PostgreSQL refuses as text.
		msg = strings.ToValidUTF8(msg[:1000], "")
	}
	if err := q.EmailOutboxMarkFailed(ctx, db.EmailOutboxMarkFailedParams{
		LastError: msg, NextAttemptAt: emailNextAttempt(job), GiveUp: giveUp, ID: id,
	}); err != nil {
		return core.Internal(err)
	}
	return fmt.Errorf("email %s, attempt %d of %d: %w", id, job.Attempt, job.MaxAttempts, sendErr)
}

// emailPending is the state of an email not yet sent nor given up.
const emailPending = "pending"
