package apptest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// LockWaiters is how many other connections to the Env's database are
// waiting for a lock (a row, an advisory lock, a table) right now: tests
// that stop one transaction at a lock wait for it to get there.
func (e *Env) LockWaiters(t testing.TB) int {
	t.Helper()
	var n int
	require.NoError(t, e.App.DB.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`).Scan(&n))
	return n
}
