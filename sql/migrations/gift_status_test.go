package migrations_test

import (
	"context"
	"database/sql"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/testdb"
	"github.com/giftwell/giftwell/sql/migrations"
)

// Migration 00009 turns the old approved gifts into ready (sender-supplied
// address, by the gift's snapshot or else the roster) or awaiting_address,
// and then refuses any status outside the set.
func TestGiftStatusMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, testdb.NewDSN(t))
	require.NoError(t, err)
	defer pool.Close()
	sqlDB := stdlib.OpenDBFromPool(pool)
	defer func(db *sql.DB) { _ = db.Close() }(sqlDB)
	p, err := goose.NewProvider(goose.DialectPostgres, sqlDB, migrations.FS, goose.WithDisableGlobalRegistry(true))
	require.NoError(t, err)
	_, err = p.DownTo(ctx, 8)
	require.NoError(t, err)

	exec := func(sql string) error { _, err := pool.Exec(ctx, sql); return err }
	require.NoError(t, exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('ws_1', 'W', now())`))
	require.NoError(t, exec(`INSERT INTO campaigns (id, workspace_id, mode, status, name, product_id, budget_cents, per_person_cents,
		max_sends, sender_name, sender_company, recipient_source, created_by, created_at, updated_at)
		VALUES ('cmp_1', 'ws_1', 'always_on', 'active', 'C', 'p', 100, 100, 10, 'S', 'A', 'workflow', 'usr_1', now(), now())`))
	require.NoError(t, exec(`INSERT INTO recipients (id, workspace_id, campaign_id, position, address_mode, created_at, updated_at) VALUES
		('recipient_1', 'ws_1', 'cmp_1', 0, 'confirm', now(), now()),
		('recipient_2', 'ws_1', 'cmp_1', 1, 'known', now(), now()),
		('recipient_3', 'ws_1', 'cmp_1', 2, 'known', now(), now()),
		('recipient_4', 'ws_1', 'cmp_1', 3, 'confirm', now(), now())`))
	// Gift 1: a snapshot without an address; 2: with one; 3: no snapshot
	// (before 00007), the roster knows the address; 4: already cancelled.
	require.NoError(t, exec(`INSERT INTO sends (id, workspace_id, campaign_id, recipient_id, product_id, status, mode, total_cents,
		funded_by, recipient, created_at, updated_at) VALUES
		('send_1', 'ws_1', 'cmp_1', 'recipient_1', 'p', 'approved', 'test', 100, 'balance', '{"addressMode":"confirm"}', now(), now()),
		('send_2', 'ws_1', 'cmp_1', 'recipient_2', 'p', 'approved', 'test', 100, 'balance', '{"addressMode":"known"}', now(), now()),
		('send_3', 'ws_1', 'cmp_1', 'recipient_3', 'p', 'approved', 'test', 100, 'balance', '{}', now(), now()),
		('send_4', 'ws_1', 'cmp_1', 'recipient_4', 'p', 'cancelled', 'test', 100, 'balance', '{}', now(), now())`))

	_, err = p.Up(ctx)
	require.NoError(t, err)
	got := map[string]string{}
	rows, err := pool.Query(ctx, `SELECT id, status FROM sends`)
	require.NoError(t, err)
	for rows.Next() {
		var id, status string
		require.NoError(t, rows.Scan(&id, &status))
		got[id] = status
	}
	require.NoError(t, rows.Err())
	require.Equal(t, map[string]string{"send_1": "awaiting_address", "send_2": "ready", "send_3": "ready", "send_4": "cancelled"}, got)
	require.Error(t, exec(`UPDATE sends SET status = 'approved' WHERE id = 'send_1'`), "statuses are the set")
}
