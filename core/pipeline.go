package core

import (
	"context"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// InPipeline runs fn in a transaction on a connection of pool whose plain
// writes go out together with the statement after them: a sqlc query
// marked :exec (its first line "-- name: X :exec"), whose caller reads no
// result, is queued instead of sent, and the queue goes out in one pgx
// batch with the next statement that returns something (or before the
// commit, a copy or a batch of the caller's own), in order; the BEGIN
// rides with the first of them (pgx's Batch.BeginTx). A queued write's
// error is the next statement's error, so a caller that words one write's
// errors for the user (a unique violation) reads them from the statement
// after it: InPipeline is for a transaction that succeeds or fails as a
// whole, as a group commit does. Statements run in the order sent, so
// locks and reads see every write before them. fn's error rolls back;
// otherwise the queue is sent and the transaction committed.
func InPipeline(ctx context.Context, pool *pgxpool.Pool, fn func(tx pgx.Tx) error) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	t := &pipelineTx{conn: conn.Conn()}
	if err := fn(t); err != nil {
		return errors.Join(err, t.Rollback(ctx))
	}
	return t.Commit(ctx)
}

// pipelineTx is InPipeline's transaction. Tx is nil until the first batch
// began it.
type pipelineTx struct {
	pgx.Tx
	conn   *pgx.Conn
	queued []queuedExec
	ended  bool
}

// queuedExec is one write waiting for the next round trip.
type queuedExec struct {
	sql  string
	args []any
}

// errQueuedWrite marks a queued write's failure.
var errQueuedWrite = errors.New("a queued write failed")

// deferrable reports whether sql is a sqlc :exec query.
func deferrable(sql string) bool {
	first, _, _ := strings.Cut(sql, "\n")
	first = strings.TrimSpace(first)
	return strings.HasPrefix(first, "-- name: ") && strings.HasSuffix(first, " :exec")
}

// Exec queues a sqlc :exec write; anything else goes out with the queue.
func (t *pipelineTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if deferrable(sql) {
		t.queued = append(t.queued, queuedExec{sql: sql, args: args})
		return pgconn.CommandTag{}, nil
	}
	if len(t.queued) == 0 && t.Tx != nil {
		return t.Tx.Exec(ctx, sql, args...)
	}
	br, err := t.send(ctx, sql, args)
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	tag, err := br.Exec()
	return tag, also(err, br.Close())
}

// Query sends the queue and sql in one round trip.
func (t *pipelineTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if len(t.queued) == 0 && t.Tx != nil {
		return t.Tx.Query(ctx, sql, args...)
	}
	br, err := t.send(ctx, sql, args)
	if err != nil {
		return nil, err
	}
	rows, err := br.Query()
	if err != nil {
		return nil, errors.Join(err, br.Close())
	}
	return &batchRows{Rows: rows, batch: br}, nil
}

// QueryRow sends the queue and sql in one round trip.
func (t *pipelineTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if len(t.queued) == 0 && t.Tx != nil {
		return t.Tx.QueryRow(ctx, sql, args...)
	}
	br, err := t.send(ctx, sql, args)
	if err != nil {
		return errRow{err}
	}
	return batchRow{row: br.QueryRow(), batch: br}
}

// send sends the queue, then sql (none when ""), as one batch, after the
// BEGIN when the transaction has not begun, and reads the queue's results:
// the returned results are at sql's. On a queued write's error the batch
// is closed and the error returned.
func (t *pipelineTx) send(ctx context.Context, sql string, args []any) (pgx.BatchResults, error) {
	if t.ended {
		return nil, pgx.ErrTxClosed
	}
	b := &pgx.Batch{}
	begin := t.Tx == nil
	if begin {
		b.BeginTx(pgx.TxOptions{})
	}
	for _, q := range t.queued {
		b.Queue(q.sql, q.args...)
	}
	n := len(t.queued)
	t.queued = nil
	if sql != "" {
		b.Queue(sql, args...)
	}
	var br pgx.BatchResults
	if begin {
		br = t.conn.SendBatch(ctx, b)
		t.Tx = br.Tx()
		if _, err := br.Exec(); err != nil {
			return nil, errors.Join(err, br.Close())
		}
	} else {
		br = t.Tx.SendBatch(ctx, b)
	}
	for range n {
		if _, err := br.Exec(); err != nil {
			return nil, errors.Join(errQueuedWrite, err, br.Close())
		}
	}
	return br, nil
}

// flush sends what is queued, beginning the transaction if it has not.
func (t *pipelineTx) flush(ctx context.Context) error {
	if len(t.queued) == 0 && t.Tx != nil {
		return nil
	}
	br, err := t.send(ctx, "", nil)
	if err != nil {
		return err
	}
	return br.Close()
}

// Commit sends the queue and the COMMIT in one batch (with the BEGIN when
// nothing was sent yet); a transaction that never sent anything has
// nothing to commit. A failed write rolls the transaction back and is
// returned; a transaction PostgreSQL had already failed reports
// pgx.ErrTxCommitRollback, as pgx's own Commit does.
func (t *pipelineTx) Commit(ctx context.Context) error {
	if t.ended {
		return pgx.ErrTxClosed
	}
	if t.Tx == nil && len(t.queued) == 0 {
		t.ended = true
		return nil
	}
	b := &pgx.Batch{}
	begin := t.Tx == nil
	if begin {
		b.BeginTx(pgx.TxOptions{})
	}
	for _, q := range t.queued {
		b.Queue(q.sql, q.args...)
	}
	t.queued = nil
	b.Queue("commit")
	var br pgx.BatchResults
	if begin {
		br = t.conn.SendBatch(ctx, b)
		t.Tx = br.Tx()
	} else {
		br = t.Tx.SendBatch(ctx, b)
	}
	var tag pgconn.CommandTag
	for range b.Len() {
		var err error
		if tag, err = br.Exec(); err != nil {
			return errors.Join(err, br.Close(), t.Rollback(ctx))
		}
	}
	if err := br.Close(); err != nil {
		return errors.Join(err, t.Rollback(ctx))
	}
	// Committed on the server: pgx's Tx is left as it is (InPipeline's
	// connection goes back to the pool idle), and nothing more is sent.
	t.ended = true
	if tag.String() == "ROLLBACK" {
		return pgx.ErrTxCommitRollback
	}
	return nil
}

// Rollback drops the queue and rolls back.
func (t *pipelineTx) Rollback(ctx context.Context) error {
	t.queued = nil
	if t.ended {
		return nil
	}
	t.ended = true
	if t.Tx == nil {
		return nil
	}
	return t.Tx.Rollback(ctx)
}

// Begin sends the queue, then starts a nested transaction (a savepoint).
func (t *pipelineTx) Begin(ctx context.Context) (pgx.Tx, error) {
	if err := t.flush(ctx); err != nil {
		return nil, err
	}
	return t.Tx.Begin(ctx)
}

// CopyFrom sends the queue, then copies.
func (t *pipelineTx) CopyFrom(ctx context.Context, table pgx.Identifier, cols []string, src pgx.CopyFromSource) (int64, error) {
	if err := t.flush(ctx); err != nil {
		return 0, err
	}
	return t.Tx.CopyFrom(ctx, table, cols, src)
}

// SendBatch sends the queue, then the caller's batch.
func (t *pipelineTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if err := t.flush(ctx); err != nil {
		return errBatch{err}
	}
	return t.Tx.SendBatch(ctx, b)
}

// also is err, or the batch's close error when err is nil: a row's own
// error (pgx.ErrNoRows) stays itself.
func also(err, closeErr error) error {
	if err != nil {
		return err
	}
	return closeErr
}

// Conn is the transaction's connection.
func (t *pipelineTx) Conn() *pgx.Conn { return t.conn }

// Prepare sends the queue, then prepares.
func (t *pipelineTx) Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error) {
	if err := t.flush(ctx); err != nil {
		return nil, err
	}
	return t.Tx.Prepare(ctx, name, sql)
}

// LargeObjects sends the queue (beginning the transaction), then hands
// out the transaction's large objects.
func (t *pipelineTx) LargeObjects() pgx.LargeObjects {
	if err := t.flush(context.Background()); err != nil || t.Tx == nil {
		return pgx.LargeObjects{}
	}
	return t.Tx.LargeObjects()
}

// batchRows are a query's rows inside a batch: closing them closes the
// batch, whose error Err then reports.
type batchRows struct {
	pgx.Rows
	batch  pgx.BatchResults
	closed error
	done   bool
}

// Close closes the rows and the batch.
func (r *batchRows) Close() {
	if r.done {
		return
	}
	r.done = true
	r.Rows.Close()
	r.closed = r.batch.Close()
}

// Err is the rows' error, or the batch's.
func (r *batchRows) Err() error {
	if err := r.Rows.Err(); err != nil {
		return err
	}
	return r.closed
}

// batchRow is a query's one row inside a batch: scanning it closes the
// batch.
type batchRow struct {
	row   pgx.Row
	batch pgx.BatchResults
}

// Scan reads the row, then closes the batch.
func (r batchRow) Scan(dest ...any) error {
	err := r.row.Scan(dest...)
	return also(err, r.batch.Close())
}

// errRow is a row that could not be read.
type errRow struct{ err error }

// Scan returns the error.
func (r errRow) Scan(...any) error { return r.err }

// errBatch is a batch that could not be sent.
type errBatch struct{ err error }

// Exec returns the error.
func (b errBatch) Exec() (pgconn.CommandTag, error) { return pgconn.CommandTag{}, b.err }

// Query returns the error.
func (b errBatch) Query() (pgx.Rows, error) { return nil, b.err }

// QueryRow returns a row with the error.
func (b errBatch) QueryRow() pgx.Row { return errRow{b.err} }

// Close returns the error.
func (b errBatch) Close() error { return b.err }

// Tx is nil: the batch began no transaction.
func (b errBatch) Tx() pgx.Tx { return nil }
