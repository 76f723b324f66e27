package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/testdb"
)

// runCLI runs the built giftwell against dsn and returns stdout, stderr and
// the exit code.
func runCLI(t *testing.T, dsn string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(giftwellBinary(t), args...)
	cmd.Env = append(os.Environ(), "DATABASE_URL="+dsn, "GIFTWELL_DATA_DIR="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return stdout.String(), stderr.String(), code
}

func TestCLIWorkspaceCreateAndAddMember(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := testdb.NewDSN(t)

	stdout, stderr, code := runCLI(t, dsn, "workspace", "create", "--name", "Acme", "--owner-email", "Ops@Example.com",
		"--owner-password", "correct horse", "--api-key")
	require.Equal(t, 0, code, stderr)
	var ws map[string]string
	require.NoError(t, json.Unmarshal([]byte(stdout), &ws), stdout)
	require.Len(t, ws, 3)
	require.True(t, strings.HasPrefix(ws["workspaceId"], "ws_"), stdout)
	require.True(t, strings.HasPrefix(ws["userId"], "usr_"), stdout)
	require.True(t, identity.IsAPIKeyFormat(ws["apiKey"]), stdout)

	stdout, stderr, code = runCLI(t, dsn, "workspace", "add-member", "--workspace", ws["workspaceId"],
		"--email", "ann@example.com", "--password", "correct horse", "--role", "admin")
	require.Equal(t, 0, code, stderr)
	var m map[string]string
	require.NoError(t, json.Unmarshal([]byte(stdout), &m), stdout)
	require.Len(t, m, 1, "no apiKey without --api-key")
	require.True(t, strings.HasPrefix(m["userId"], "usr_"))

	// The key the CLI printed works, as the owner.
	pool, err := pgxpool.New(ctx, dsn)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	app := giftwell.New(pool, core.Config{SiteURL: "http://127.0.0.1:0"}, nil, nil)
	p, err := app.Connect.Authenticate(ctx, ws["apiKey"])
	require.NoError(t, err)
	require.Equal(t, ws["workspaceId"], p.WorkspaceID)
	require.Equal(t, core.RoleOwner, p.Role)
}

func TestCLIErrors(t *testing.T) {
	t.Parallel()
	dsn := testdb.NewDSN(t)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"workspace", "create", "--name", "Acme", "--owner-email", "nope", "--owner-password", "correct horse"}, "VALIDATION_ERROR: --owner-email: "},
		{[]string{"workspace", "create", "--name", "Acme", "--owner-email", "a@example.com", "--owner-password", "short"}, "VALIDATION_ERROR: --owner-password: "},
		{[]string{"workspace", "add-member", "--workspace", "ws_none", "--email", "a@example.com", "--password", "correct horse", "--role", "admin"}, "NOT_FOUND: "},
		{[]string{"workspace", "add-member", "--workspace", "ws_none", "--email", "a@example.com", "--password", "correct horse", "--role", "boss"}, "VALIDATION_ERROR: --role: "},
		{[]string{"workspace", "create", "stray"}, "unexpected argument"},
	}
	for _, c := range cases {
		stdout, stderr, code := runCLI(t, dsn, c.args...)
		require.Equal(t, 1, code, "%v: %s", c.args, stderr)
		require.Empty(t, stdout)
		require.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
		require.Contains(t, stderr, "giftwell: "+c.want, c.args)
	}

	_, stderr, code := runCLI(t, dsn, "frobnicate")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "usage:")
}

func TestCLIMigrateAndCatalogImport(t *testing.T) {
	t.Parallel()
	dsn := testdb.NewDSN(t)
	stdout, stderr, code := runCLI(t, dsn, "migrate")
	require.Equal(t, 0, code, stderr)
	require.JSONEq(t, `{"migrated":true}`, stdout)

	_, stderr, code = runCLI(t, dsn, "catalog", "import", "/nonexistent/catalog.json")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "no such file")
}
