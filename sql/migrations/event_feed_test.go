package migrations_test

import (
	"context"
	"database/sql"
	"testing"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // the database/sql driver goose uses
	"github.com/pressly/goose/v3"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/testdb"
	"github.com/giftwell/giftwell/sql/migrations"
)

// Events written before 00008 keep xid 0 and their seq order, ahead of
// every later event; later events carry their transaction's ID.
func TestEventFeedBackfill(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := testdb.NewEmptyDSN(t)
	sqlDB, err := sql.Open("pgx", dsn)
	require.NoError(t, err)
	defer sqlDB.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, sqlDB, migrations.FS, goose.WithDisableGlobalRegistry(true))
	require.NoError(t, err)
	_, err = p.UpTo(ctx, 7)
	require.NoError(t, err)

	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer conn.Close(ctx)
	insert := `INSERT INTO events (id, workspace_id, type, mode, send_id, in_feed, created_at)
		VALUES ($1, 'ws_1', 'send.created', 'test', 'send_1', true, now())`
	_, err = conn.Exec(ctx, `INSERT INTO workspaces (id, name, created_at) VALUES ('ws_1', 'W', now())`)
	require.NoError(t, err)
	for _, id := range []string{"evt_old1", "evt_old2"} {
		_, err = conn.Exec(ctx, insert, id)
		require.NoError(t, err)
	}

	require.NoError(t, migrations.Up(ctx, dsn))
	tx, err := conn.Begin(ctx)
	require.NoError(t, err)
	_, err = tx.Exec(ctx, insert, "evt_new")
	require.NoError(t, err)
	var own uint64
	require.NoError(t, tx.QueryRow(ctx, "SELECT pg_current_xact_id()::text::numeric").Scan(&own))
	require.NoError(t, tx.Commit(ctx))

	rows, err := conn.Query(ctx, "SELECT id, xid::text::numeric FROM events ORDER BY xid, seq")
	require.NoError(t, err)
	type event struct {
		id  string
		xid uint64
	}
	got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (event, error) {
		var e event
		return e, r.Scan(&e.id, &e.xid)
	})
	require.NoError(t, err)
	require.Equal(t, []event{{"evt_old1", 0}, {"evt_old2", 0}, {"evt_new", own}}, got)
	require.Positive(t, own)
}
