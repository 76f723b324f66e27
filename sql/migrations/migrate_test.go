package migrations_test

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/testdb"
	"github.com/giftwell/giftwell/sql/migrations"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// Several processes starting at once all call Up; the advisory lock makes
// one migrate and the others find nothing to do.
func TestUpConcurrently(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := testdb.NewEmptyDSN(t)

	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() { errs[i] = migrations.Up(ctx, dsn) })
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	require.NoError(t, migrations.Up(ctx, dsn), "a second run is a no-op")

	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var applied int
	require.NoError(t, conn.QueryRow(ctx, "SELECT count(*) FROM goose_db_version WHERE version_id > 0 AND is_applied").Scan(&applied))
	files, err := migrations.FS.ReadDir(".")
	require.NoError(t, err)
	require.Equal(t, len(files), applied, "every migration applied exactly once")
	var riverVersions int
	require.NoError(t, conn.QueryRow(ctx, "SELECT count(*) FROM river_migration").Scan(&riverVersions))
	require.Positive(t, riverVersions)
}

// The people schema enforces what core relies on.
func TestPeopleConstraints(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, testdb.NewDSN(t))
	require.NoError(t, err)
	defer conn.Close(ctx)
	exec := func(sql string) error { _, err := conn.Exec(ctx, sql); return err }

	require.NoError(t, exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('ws_1', 'W', now())`))
	require.NoError(t, exec(`INSERT INTO users (id, email, name, password_hash, created_at) VALUES ('usr_1', 'a@x.test', 'A', 'h', now()), ('usr_2', 'b@x.test', 'B', 'h', now())`))
	require.Error(t, exec(`INSERT INTO users (id, email, name, password_hash, created_at) VALUES ('usr_3', 'A@x.test', 'A', 'h', now())`), "emails are stored lowercased")
	require.Error(t, exec(`INSERT INTO workspaces (id, name, mode, created_at) VALUES ('ws_2', 'W', 'prod', now())`), "mode is test or live")
	require.NoError(t, exec(`INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES ('ws_1', 'usr_1', 'owner', now())`))
	require.Error(t, exec(`INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES ('ws_1', 'usr_2', 'owner', now())`), "one owner per workspace")
	require.Error(t, exec(`INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES ('ws_1', 'usr_2', 'boss', now())`), "roles are checked")
	var mode string
	require.NoError(t, conn.QueryRow(ctx, `SELECT mode FROM workspaces WHERE id = 'ws_1'`).Scan(&mode))
	require.Equal(t, "test", mode, "workspaces start in test mode")
}
