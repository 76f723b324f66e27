package core

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/sql/db"
)

// A transaction carried in a context lets an adapter outside core make
// several core calls atomic: it begins with BeginTx, passes the returned
// context to the calls, and ends with CommitTx or RollbackTx. Only the
// methods whose doc comment says they join the caller's transaction run on
// it; every other method keeps its own transaction boundary.
//
// This is the seam fosite's storage.Transactional needs (the OAuth adapter
// in package oauth): the code exchange and the refresh-token rotation run
// their storage calls in one transaction.

type txKey struct{}

// ctxTx is the transaction a context carries; done is set once it was
// committed or rolled back, after which the context no longer joins it.
type ctxTx struct {
	tx   pgx.Tx
	done atomic.Bool
}

// WithTx returns a context carrying tx: the core methods that join the
// caller's transaction run on it. The caller commits or rolls back tx itself.
func WithTx(ctx context.Context, tx pgx.Tx) context.Context {
	return context.WithValue(ctx, txKey{}, &ctxTx{tx: tx})
}

// txFrom is the open transaction ctx carries, if any.
func txFrom(ctx context.Context) (*ctxTx, bool) {
	t, ok := ctx.Value(txKey{}).(*ctxTx)
	if !ok || t.done.Load() {
		return nil, false
	}
	return t, true
}

// CarriesTx reports whether ctx carries an open transaction (see WithTx).
// A method that calls another system checks it first: nothing calls out
// while a transaction is held.
func CarriesTx(ctx context.Context) bool {
	_, ok := txFrom(ctx)
	return ok
}

// BeginTx begins a transaction and returns a context carrying it (see
// WithTx). When ctx already carries one, the new transaction is a savepoint
// inside it. End it with CommitTx or RollbackTx on the returned context.
// It returns INTERNAL_ERROR.
func (a *Kernel) BeginTx(ctx context.Context) (context.Context, error) {
	var (
		tx  pgx.Tx
		err error
	)
	if outer, ok := txFrom(ctx); ok {
		tx, err = outer.tx.Begin(ctx)
	} else {
		tx, err = a.DB.Begin(ctx)
	}
	if err != nil {
		return ctx, Internal(err)
	}
	return WithTx(ctx, tx), nil
}

// errNoTx is returned by CommitTx and RollbackTx on a context without an open transaction.
var errNoTx = errors.New("core: the context carries no open transaction")

// CommitTx commits the transaction BeginTx put in ctx. It returns
// INTERNAL_ERROR when ctx carries no open transaction or the commit fails.
func (a *Kernel) CommitTx(ctx context.Context) error {
	t, ok := txFrom(ctx)
	if !ok {
		return Internal(errNoTx)
	}
	t.done.Store(true)
	if err := t.tx.Commit(ctx); err != nil {
		return Internal(err)
	}
	return nil
}

// RollbackTx rolls back the transaction BeginTx put in ctx. Rolling back a
// transaction that already ended (a failed commit is rolled back by
// PostgreSQL) is not an error. It returns INTERNAL_ERROR when ctx carries no
// transaction at all or the rollback fails.
func (a *Kernel) RollbackTx(ctx context.Context) error {
	t, ok := ctx.Value(txKey{}).(*ctxTx)
	if !ok {
		return Internal(errNoTx)
	}
	if t.done.Swap(true) {
		return nil
	}
	// Roll back even when ctx is cancelled: the connection must go back clean.
	if err := t.tx.Rollback(context.WithoutCancel(ctx)); err != nil && !errors.Is(err, pgx.ErrTxClosed) {
		return Internal(err)
	}
	return nil
}

// Conn is what a method that joins the caller's transaction runs its
// queries on: the transaction in ctx, or else the pool.
func (a *Kernel) Conn(ctx context.Context) db.DBTX {
	if t, ok := txFrom(ctx); ok {
		return t.tx
	}
	return a.DB
}

// InTx runs fn in a transaction of its own or, when ctx carries one, in a
// savepoint of it, so that fn's statements are atomic either way.
func (a *Kernel) InTx(ctx context.Context, fn func(q *db.Queries) error) error {
	return a.InTxJobs(ctx, func(tx pgx.Tx) error { return fn(db.New(tx)) })
}

// InTxJobs is InTx for a write that also inserts River jobs (InsertJob
// takes the pgx.Tx): fn is handed the transaction (or savepoint) itself.
func (a *Kernel) InTxJobs(ctx context.Context, fn func(tx pgx.Tx) error) error {
	var outer interface {
		Begin(context.Context) (pgx.Tx, error)
	} = a.DB
	if t, ok := txFrom(ctx); ok {
		outer = t.tx
	}
	return pgx.BeginFunc(ctx, outer, fn)
}

// ReadTx runs fn in a read-only repeatable-read transaction: one snapshot
// for a read that takes several queries. Errors come back as *Error.
func (a *Kernel) ReadTx(ctx context.Context, fn func(q *db.Queries) error) error {
	err := pgx.BeginTxFunc(ctx, a.DB, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		return fn(db.New(tx))
	})
	return AsCoreError(err)
}
