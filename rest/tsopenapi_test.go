package rest_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/rest"
	"github.com/giftwell/giftwell/tools"
)

// tsOpenAPIDir holds the pinned openapi-typescript and TypeScript (npm ci;
// make tsdeps) and the client script the generated types must compile.
const tsOpenAPIDir = "../internal/tsopenapi"

// tsOpenAPITools finds node and the installed packages, installing them
// with npm ci when they are missing. Outside CI the test skips without node
// or when the install fails (offline); in CI it fails.
func tsOpenAPITools(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the generated TypeScript client test needs node in CI: %v", err)
		}
		t.Skip("node is not installed; the generated TypeScript client test skips outside CI")
	}
	if _, err := os.Stat(filepath.Join(tsOpenAPIDir, "node_modules", "openapi-typescript", "package.json")); err != nil {
		out, err := exec.Command("npm", "ci", "--prefix", tsOpenAPIDir, "--no-audit", "--no-fund").CombinedOutput()
		if err != nil && os.Getenv("CI") == "" {
			t.Skipf("openapi-typescript could not be installed (offline?); the test skips outside CI: %v: %s", err, out)
		}
		require.NoError(t, err, "npm ci (make tsdeps): %s", out)
	}
	return node
}

// TestGeneratedTypeScriptClientCompiles generates TypeScript types from the
// OpenAPI 3.1 document with openapi-typescript and type-checks
// internal/tsopenapi/client.ts against them with tsc --noEmit: a client
// that creates a playbook, adds a person, reads the queue and reads a gift,
// using lists as plain arrays (no null to narrow away) and no casts.
func TestGeneratedTypeScriptClientCompiles(t *testing.T) {
	t.Parallel()
	node := tsOpenAPITools(t)
	v31, _, err := rest.OpenAPI(tools.All(nil), docConfig)
	require.NoError(t, err)

	abs, err := filepath.Abs(tsOpenAPIDir)
	require.NoError(t, err)
	dir := t.TempDir()
	for _, name := range []string{"client.ts", "tsconfig.json"} {
		b, err := os.ReadFile(filepath.Join(abs, name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o644))
	}
	require.NoError(t, os.Symlink(filepath.Join(abs, "node_modules"), filepath.Join(dir, "node_modules")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "openapi.json"), v31, 0o644))

	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	run := func(script string, args ...string) string {
		cmd := exec.CommandContext(ctx, node, append([]string{filepath.Join(dir, "node_modules", script)}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s: %s", script, out)
		return string(out)
	}
	// Defaults describe what the server assumes, not what a client must send.
	run("openapi-typescript/bin/cli.js", "openapi.json", "-o", "api.d.ts", "--default-non-nullable", "false")
	api, err := os.ReadFile(filepath.Join(dir, "api.d.ts"))
	require.NoError(t, err)
	require.NotContains(t, string(api), "[] | null", "a list is typed nullable")
	run("typescript/bin/tsc", "-p", "tsconfig.json")
	t.Logf("openapi-typescript types (%d bytes) and client.ts type-check with tsc --noEmit", len(api))
}
