package migrations_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/testdb"
)

// The web people schema enforces what core relies on.
func TestPeopleWebConstraints(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, testdb.NewDSN(t))
	require.NoError(t, err)
	defer conn.Close(ctx)
	exec := func(sql string) error { _, err := conn.Exec(ctx, sql); return err }

	require.NoError(t, exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('ws_1', 'W', now())`))
	require.NoError(t, exec(`INSERT INTO users (id, email, name, password_hash, created_at) VALUES ('usr_1', 'a@x.test', 'A', 'h', now())`))

	invite := `INSERT INTO invitations (id, workspace_id, email, role, hash, invited_by, created_at, expires_at)
		VALUES ($1, 'ws_1', 'b@x.test', $2, sha256($3::bytea), 'usr_1', now(), now() + interval '7 days')`
	_, err = conn.Exec(ctx, invite, "inv_1", "member", "t1")
	require.NoError(t, err)
	_, err = conn.Exec(ctx, invite, "inv_2", "member", "t2")
	require.Error(t, err, "one open invitation per email and workspace")
	_, err = conn.Exec(ctx, invite, "inv_3", "owner", "t3")
	require.Error(t, err, "nobody is invited as owner")
	require.NoError(t, exec(`UPDATE invitations SET revoked_at = now() WHERE id = 'inv_1'`))
	_, err = conn.Exec(ctx, invite, "inv_2", "admin", "t2")
	require.NoError(t, err, "a revoked invitation frees the email")
	require.Error(t, exec(`UPDATE invitations SET accepted_at = now() WHERE id = 'inv_1'`), "accepted and revoked exclude each other")

	require.Error(t, exec(`INSERT INTO sessions (id, hash, user_id, workspace_id, created_at, expires_at) VALUES ('ses_1', '\x00', 'usr_1', 'ws_1', now(), now())`), "hashes are SHA-256")
	require.Error(t, exec(`INSERT INTO workspace_settings (workspace_id, company, sender_name, brand_color, updated_at) VALUES ('ws_1', 'C', 'N', 'red', now())`))
	require.Error(t, exec(`INSERT INTO workspace_settings (workspace_id, company, sender_name, updated_at) VALUES ('ws_1', '', 'N', now())`))
	require.NoError(t, exec(`INSERT INTO workspace_settings (workspace_id, company, sender_name, brand_color, updated_at) VALUES ('ws_1', 'C', 'N', '#00aa11', now())`))
	require.Error(t, exec(`INSERT INTO email_outbox (id, to_address, subject, body, state, next_attempt_at, created_at) VALUES ('eml_1', 'a@x.test', 's', 'b', 'lost', now(), now())`))
}
