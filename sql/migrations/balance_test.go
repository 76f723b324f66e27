package migrations_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/testdb"
)

// The balance schema enforces what core's money rules rely on.
func TestBalanceConstraints(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, testdb.NewDSN(t))
	require.NoError(t, err)
	defer conn.Close(ctx)
	exec := func(sql string) error { _, err := conn.Exec(ctx, sql); return err }

	require.NoError(t, exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('ws_1', 'W', now())`))
	require.NoError(t, exec(`INSERT INTO balances (workspace_id, mode, cents, updated_at) VALUES ('ws_1', 'test', 100, now())`))
	require.Error(t, exec(`UPDATE balances SET cents = -1 WHERE workspace_id = 'ws_1'`), "a balance never goes below zero")
	require.Error(t, exec(`INSERT INTO balances (workspace_id, mode, updated_at) VALUES ('ws_1', 'test', now())`), "one balance per mode")

	entry := `INSERT INTO ledger_entries (id, workspace_id, mode, kind, cents, send_id, created_at) VALUES ($1, 'ws_1', 'test', $2, $3, $4, now())`
	_, err = conn.Exec(ctx, entry, "led_1", "debit", -100, "send_1")
	require.NoError(t, err)
	_, err = conn.Exec(ctx, entry, "led_2", "debit", -100, "send_1")
	require.Error(t, err, "one debit per gift")
	_, err = conn.Exec(ctx, entry, "led_3", "debit", 100, "send_2")
	require.Error(t, err, "a debit is negative")
	_, err = conn.Exec(ctx, entry, "led_4", "credit", -100, "send_1")
	require.Error(t, err, "a credit is positive")
	_, err = conn.Exec(ctx, entry, "led_5", "topup", 100, nil)
	require.Error(t, err, "a top-up entry names its top-up")
	_, err = conn.Exec(ctx, entry, "led_6", "credit", 100, "send_1")
	require.NoError(t, err)

	require.Error(t, exec(`UPDATE ledger_entries SET cents = -1 WHERE id = 'led_1'`), "the ledger is append-only")
	require.Error(t, exec(`DELETE FROM ledger_entries WHERE id = 'led_1'`), "the ledger is append-only")
}
