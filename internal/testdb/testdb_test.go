package testdb_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// Each parallel test writes to the same table name in its own database and
// must see only its own rows.
func TestParallelIsolation(t *testing.T) {
	t.Parallel()
	for i := range 8 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			pool := testdb.New(t)
			var dbName string
			require.NoError(t, pool.QueryRow(ctx, "SELECT current_database()").Scan(&dbName))
			_, err := pool.Exec(ctx, "CREATE TABLE scratch (who text)")
			require.NoError(t, err, "the table is new in every database")
			_, err = pool.Exec(ctx, "INSERT INTO scratch VALUES ($1)", dbName)
			require.NoError(t, err)
			var n int
			var who string
			require.NoError(t, pool.QueryRow(ctx, "SELECT count(*), min(who) FROM scratch").Scan(&n, &who))
			require.Equal(t, 1, n)
			require.Equal(t, dbName, who)
		})
	}
}

// The template is migrated: Giftwell's and River's tables are there.
func TestTemplateIsMigrated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.New(t)
	for _, table := range []string{"workspaces", "users", "memberships", "api_keys", "river_job", "goose_db_version"} {
		var exists bool
		require.NoError(t, pool.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL", table).Scan(&exists))
		require.True(t, exists, table)
	}
}

// NewDSN hands out a connection string for a database of the test's own.
func TestNewDSN(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := testdb.NewDSN(t)
	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var n int
	require.NoError(t, conn.QueryRow(ctx, "SELECT count(*) FROM workspaces").Scan(&n))
	require.Zero(t, n, "a fresh database holds no workspace")
}
