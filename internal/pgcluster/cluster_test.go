package pgcluster_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/pgcluster"
)

// baseDir is a short directory the server account can reach.
func baseDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "gwpgt")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(dir, 0o755))
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

func exec1(t *testing.T, dsn, sql string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	require.NoError(t, err)
}

func TestStartStopRestartReuse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	base := baseDir(t)
	opts := pgcluster.Options{DataDir: filepath.Join(base, "data"), SocketDir: filepath.Join(base, "s"), Ephemeral: true}

	c, err := pgcluster.Start(ctx, opts)
	require.NoError(t, err)
	require.False(t, c.Attached())
	exec1(t, c.DSN("postgres"), "CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)")

	// A second Start on the same directory attaches, and its Stop leaves the server up.
	again, err := pgcluster.Start(ctx, opts)
	require.NoError(t, err)
	require.True(t, again.Attached())
	require.Equal(t, c.SocketDir(), again.SocketDir())
	require.NoError(t, again.Stop(ctx))
	exec1(t, c.DSN("postgres"), "SELECT 1")

	require.NoError(t, c.Stop(ctx))
	_, err = pgx.Connect(ctx, c.DSN("postgres"))
	require.Error(t, err, "the server is stopped")

	// Restart reuses the initialised data directory.
	c, err = pgcluster.Start(ctx, opts)
	require.NoError(t, err)
	require.False(t, c.Attached())
	conn, err := pgx.Connect(ctx, c.DSN("postgres"))
	require.NoError(t, err)
	var n int
	require.NoError(t, conn.QueryRow(ctx, "SELECT n FROM kept").Scan(&n))
	require.Equal(t, 42, n)
	// Autovacuum looks at growing tables every few seconds, so prepared
	// statements' plans are made again once their tables are analyzed.
	var naptime string
	require.NoError(t, conn.QueryRow(ctx, "SHOW autovacuum_naptime").Scan(&naptime))
	require.Equal(t, "5s", naptime)
	require.NoError(t, conn.Close(ctx))
	require.NoError(t, c.Stop(ctx))
}

func TestStalePidFile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	base := baseDir(t)
	opts := pgcluster.Options{DataDir: filepath.Join(base, "data"), SocketDir: filepath.Join(base, "s"), Ephemeral: true}
	c, err := pgcluster.Start(ctx, opts)
	require.NoError(t, err)
	require.NoError(t, c.Stop(ctx))

	// A crash leaves postmaster.pid behind, naming a process that is gone.
	stale := "999999999\n" + c.DataDir() + "\n0\n5432\n" + c.SocketDir() + "\n\n0 0\nready   \n"
	require.NoError(t, os.WriteFile(filepath.Join(c.DataDir(), "postmaster.pid"), []byte(stale), 0o600))

	c, err = pgcluster.Start(ctx, opts)
	require.NoError(t, err)
	require.False(t, c.Attached())
	exec1(t, c.DSN("postgres"), "SELECT 1")
	require.NoError(t, c.Stop(ctx))
}

func TestDefaultSocketDirIsShort(t *testing.T) {
	t.Parallel()
	base := baseDir(t)
	long := filepath.Join(base, "a-rather-long-directory-name-that-would-overflow-a-unix-socket-path", "and-some-more", "data")
	ctx := context.Background()
	c, err := pgcluster.Start(ctx, pgcluster.Options{DataDir: long, Ephemeral: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(c.SocketDir()) })
	require.Less(t, len(c.SocketDir()), 60)
	exec1(t, c.DSN("postgres"), "SELECT 1")
	require.NoError(t, c.Stop(ctx))
}

func TestFindBinaries(t *testing.T) {
	t.Parallel()
	b, err := pgcluster.FindBinaries()
	require.NoError(t, err)
	for _, p := range []string{"initdb", "pg_ctl", "postgres"} {
		_, err := os.Stat(b.Path(p))
		require.NoError(t, err, p)
	}
}
