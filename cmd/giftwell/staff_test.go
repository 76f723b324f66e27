package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/testdb"
)

func TestCLIStaffEnableLive(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := testdb.NewDSN(t)
	stdout, stderr, code := runCLI(t, dsn, "workspace", "create", "--name", "Acme", "--owner-email", "ops@example.com",
		"--owner-password", "correct horse", "--api-key")
	require.Equal(t, 0, code, stderr)
	var ws map[string]string
	require.NoError(t, json.Unmarshal([]byte(stdout), &ws), stdout)

	pool, err := pgxpool.New(ctx, dsn)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	app := giftwell.New(pool, core.Config{SiteURL: "http://127.0.0.1:0"}, nil, nil)
	p, err := app.Connect.Authenticate(ctx, ws["apiKey"])
	require.NoError(t, err)
	require.Equal(t, core.ModeTest, p.Mode)

	stdout, stderr, code = runCLI(t, dsn, "staff", "enable-live", "--workspace", ws["workspaceId"])
	require.Equal(t, 0, code, stderr)
	require.JSONEq(t, `{"workspaceId":"`+ws["workspaceId"]+`","name":"Acme","mode":"live","changed":true}`, stdout)

	// The key's next request is live, with the live balance (zero).
	p, err = app.Connect.Authenticate(ctx, ws["apiKey"])
	require.NoError(t, err)
	require.Equal(t, core.ModeLive, p.Mode)
	b, err := app.Approvals.Balance(ctx, p)
	require.NoError(t, err)
	require.Equal(t, core.ModeLive, b.Mode)
	require.Zero(t, b.Cents)

	// Again: nothing changes.
	stdout, stderr, code = runCLI(t, dsn, "staff", "enable-live", "--workspace", ws["workspaceId"])
	require.Equal(t, 0, code, stderr)
	require.JSONEq(t, `{"workspaceId":"`+ws["workspaceId"]+`","name":"Acme","mode":"live","changed":false}`, stdout)

	for args, want := range map[string]string{
		"staff enable-live --workspace ws_none": "giftwell: NOT_FOUND: --workspace: no workspace ws_none",
		"staff enable-live":                     "giftwell: --workspace is required",
		"staff enable-live --workspace ws_x y":  `giftwell: unexpected argument "y"`,
	} {
		stdout, stderr, code = runCLI(t, dsn, strings.Fields(args)...)
		require.Equal(t, 1, code, "%s: %s", args, stderr)
		require.Empty(t, stdout)
		require.Equal(t, want+"\n", stderr, args)
	}
}
