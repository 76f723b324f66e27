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

// TestCLIRefusesHostileText: a flag value or an imported catalog holding
// bytes that are not UTF-8 (or a NUL, which JSON can escape) is a
// VALIDATION_ERROR naming the flag or field, before the database is opened.
func TestCLIRefusesHostileText(t *testing.T) {
	t.Parallel()
	dsn := testdb.NewDSN(t)
	catalogFile := t.TempDir() + "/catalog.json"
	require.NoError(t, os.WriteFile(catalogFile, []byte(`[{"id":"mug","name":"Mug\u0000"}]`), 0o600))
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"workspace", "create", "--name", "Acme\xff", "--owner-email", "a@example.com", "--owner-password", "correct horse"}, "VALIDATION_ERROR: --name: must be UTF-8 text"},
		{[]string{"workspace", "create", "--name", "Acme", "--owner-email", "a\xc3\x28@example.com", "--owner-password", "correct horse"}, "VALIDATION_ERROR: --owner-email: must be UTF-8 text"},
		{[]string{"workspace", "add-member", "--workspace", "ws_\xff", "--email", "b@example.com", "--password", "correct horse", "--role", "admin"}, "VALIDATION_ERROR: --workspace: must be UTF-8 text"},
		{[]string{"staff", "gift", "--send", "send_x", "--status", "cancelled", "--reason", "oops\xff"}, "VALIDATION_ERROR: --reason: must be UTF-8 text"},
		{[]string{"staff", "enable-live", "--workspace", "\xfe"}, "VALIDATION_ERROR: --workspace: must be UTF-8 text"},
		{[]string{"catalog", "import", catalogFile}, "VALIDATION_ERROR: [0].name: must not contain a NUL character (U+0000)"},
	}
	for _, c := range cases {
		stdout, stderr, code := runCLI(t, dsn, c.args...)
		require.Equal(t, 1, code, "%q: %s", c.args, stderr)
		require.Empty(t, stdout)
		require.Contains(t, stderr, "giftwell: "+c.want, "%q", c.args)
	}
	// The refused create wrote nothing: the same owner's clean create works.
	_, stderr, code := runCLI(t, dsn, "workspace", "create", "--name", "Acme", "--owner-email", "a@example.com", "--owner-password", "correct horse")
	require.Equal(t, 0, code, stderr)
}
