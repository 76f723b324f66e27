package apptest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river/rivertype"

	"github.com/giftwell/giftwell/core/identity"
)

// DeliverEmails works the Env's waiting email jobs with sender, as River
// would, and returns how many emails were sent.
func (e *Env) DeliverEmails(t testing.TB, sender identity.EmailSender) int {
	t.Helper()
	n := 0
	for _, job := range WorkJobs(t, e.App, &identity.DeliverEmailWorker{Identity: e.App.Identity, Sender: sender}) {
		if job.State == rivertype.JobStateCompleted {
			n++
		}
	}
	return n
}

// RequireNoTransaction checks from a connection of its own that no other
// connection to the Env's database is inside a transaction, then runs lock
// in a transaction of that connection (rolled back). Tests call it from
// inside a call to another system (a payment processor, a mail server) to
// prove that no transaction or row lock is held across it.
func (e *Env) RequireNoTransaction(ctx context.Context, lock func(pgx.Tx) error) error {
	conn, err := pgx.Connect(ctx, e.App.DB.Config().ConnString())
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT coalesce(state, '') || ': ' || coalesce(query, '') FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'`)
	if err != nil {
		return err
	}
	open, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	if len(open) > 0 {
		return errors.New("a connection is inside a transaction: " + strings.Join(open, "; "))
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	return lock(tx)
}
