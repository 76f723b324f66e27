package core_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/testdb"
)

// roundTrips counts what a pool sends: each statement, or each batch once.
type roundTrips struct{ n atomic.Int64 }

func (c *roundTrips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	return ctx
}
func (c *roundTrips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (c *roundTrips) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	c.n.Add(1)
	return ctx
}
func (c *roundTrips) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (c *roundTrips) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

const (
	insertNote = "-- name: NoteInsert :exec\nINSERT INTO pipeline_notes (n) VALUES ($1)"
	countNotes = "-- name: NoteCount :one\nSELECT count(*), coalesce(sum(n), 0) FROM pipeline_notes"
	listNotes  = "-- name: NoteList :many\nSELECT n FROM pipeline_notes ORDER BY seq"
	noNote     = "-- name: NoteGet :one\nSELECT n FROM pipeline_notes WHERE n < 0"
	clearNotes = "-- name: NoteClear :execrows\nDELETE FROM pipeline_notes WHERE n = $1"
)

// pipelinePool is a pool on a fresh database with a notes table, and its
// round-trip counter.
func pipelinePool(t *testing.T) (*pgxpool.Pool, *roundTrips) {
	t.Helper()
	ctx := context.Background()
	cfg, err := pgxpool.ParseConfig(testdb.NewDSN(t))
	require.NoError(t, err)
	trips := &roundTrips{}
	cfg.ConnConfig.Tracer = trips
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	_, err = pool.Exec(ctx, `CREATE TABLE pipeline_notes (seq bigint GENERATED ALWAYS AS IDENTITY, n int NOT NULL CHECK (n <> 13))`)
	require.NoError(t, err)
	return pool, trips
}

// Writes marked :exec ride with the next read, in order, in one round
// trip with the BEGIN; other statements go at once, after the queue; the
// commit goes with what is left.
func TestPipelineSendsWritesWithTheNextRead(t *testing.T) {
	ctx := context.Background()
	pool, trips := pipelinePool(t)
	before := trips.n.Load()
	require.NoError(t, core.InPipeline(ctx, pool, func(tx pgx.Tx) error {
		for n := range 3 {
			_, err := tx.Exec(ctx, insertNote, n+1)
			require.NoError(t, err)
		}
		require.Equal(t, before, trips.n.Load(), "queued, not sent, and not begun")
		var count, sum int64
		require.NoError(t, tx.QueryRow(ctx, countNotes).Scan(&count, &sum))
		require.Equal(t, []int64{3, 6}, []int64{count, sum}, "the read sees the writes before it")
		require.Equal(t, before+1, trips.n.Load(), "the begin, three writes and a read in one round trip")

		_, err := tx.Exec(ctx, insertNote, 4)
		require.NoError(t, err)
		rows, err := tx.Query(ctx, listNotes)
		require.NoError(t, err)
		got, err := pgx.CollectRows(rows, pgx.RowTo[int32])
		require.NoError(t, err)
		require.Equal(t, []int32{1, 2, 3, 4}, got)
		require.Equal(t, before+2, trips.n.Load())

		_, err = tx.Exec(ctx, insertNote, 5)
		require.NoError(t, err)
		tag, err := tx.Exec(ctx, clearNotes, 5)
		require.NoError(t, err)
		require.Equal(t, int64(1), tag.RowsAffected(), "an :execrows runs at once, after the queue, with its count")

		var n int32
		err = tx.QueryRow(ctx, noNote).Scan(&n)
		require.ErrorIs(t, err, pgx.ErrNoRows)
		require.True(t, core.IsNoRows(err))

		_, err = tx.Exec(ctx, insertNote, 6)
		return err
	}))
	require.Equal(t, before+5, trips.n.Load(), "the last write and the commit: one round trip")
	var count int64
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM pipeline_notes WHERE n = 6`).Scan(&count))
	require.Equal(t, int64(1), count, "the commit sent the last write")
}

// A queued write that fails fails the statement after it, and the
// transaction with it: nothing lands.
func TestPipelineWriteErrorFailsTheNextStatement(t *testing.T) {
	ctx := context.Background()
	pool, _ := pipelinePool(t)
	for name, next := range map[string]func(tx pgx.Tx) error{
		"read": func(tx pgx.Tx) error {
			var count, sum int64
			return tx.QueryRow(ctx, countNotes).Scan(&count, &sum)
		},
		"rows": func(tx pgx.Tx) error {
			rows, err := tx.Query(ctx, listNotes)
			if err != nil {
				return err
			}
			_, err = pgx.CollectRows(rows, pgx.RowTo[int32])
			return err
		},
		"commit": func(pgx.Tx) error { return nil },
	} {
		t.Run(name, func(t *testing.T) {
			err := core.InPipeline(ctx, pool, func(tx pgx.Tx) error {
				for _, n := range []int{1, 13, 2} {
					if _, err := tx.Exec(ctx, insertNote, n); err != nil {
						return err
					}
				}
				return next(tx)
			})
			var pgErr *pgconn.PgError
			require.ErrorAs(t, err, &pgErr)
			require.Equal(t, "23514", pgErr.Code, "the check violation of the second write")
			var count int64
			require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM pipeline_notes`).Scan(&count))
			require.Zero(t, count)
		})
	}
}

// A transaction PostgreSQL failed, whose error the caller let pass, does
// not commit: the COMMIT comes back as a rollback, reported as pgx does.
func TestPipelineCommitOfAFailedTransactionRollsBack(t *testing.T) {
	ctx := context.Background()
	pool, _ := pipelinePool(t)
	err := core.InPipeline(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, insertNote, 1); err != nil {
			return err
		}
		var n int
		_ = tx.QueryRow(ctx, "SELECT 1 / 0").Scan(&n) // the caller looks away
		return nil
	})
	require.ErrorIs(t, err, pgx.ErrTxCommitRollback)
	var count int64
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM pipeline_notes`).Scan(&count))
	require.Zero(t, count)
}
