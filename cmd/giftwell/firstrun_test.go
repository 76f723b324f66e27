package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/testdb"
)

func TestFirstRunCreatesOnceAndSaves(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	identity.UseFastPasswordHashing()
	app := giftwell.New(testdb.New(t), core.Config{SiteURL: "http://127.0.0.1:9999"}, nil, nil)
	dir := t.TempDir()

	var out bytes.Buffer
	require.NoError(t, firstRun(ctx, app, dir, &out))
	printed := out.String()
	for _, want := range []string{"http://127.0.0.1:9999/login", "owner@giftwell.local", "http://127.0.0.1:9999/mcp"} {
		require.Contains(t, printed, want)
	}
	key := regexp.MustCompile(`gwk_[0-9a-f]{64}`).FindString(printed)
	require.NotEmpty(t, key)
	p, err := app.Connect.Authenticate(ctx, key)
	require.NoError(t, err)
	require.Equal(t, core.RoleOwner, p.Role)

	file := filepath.Join(dir, "first-run.txt")
	fi, err := os.Stat(file)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	saved, err := os.ReadFile(file)
	require.NoError(t, err)
	require.Contains(t, string(saved), key)

	// A second start creates nothing and points at the file.
	out.Reset()
	require.NoError(t, firstRun(ctx, app, dir, &out))
	require.NotContains(t, out.String(), "gwk_")
	require.Contains(t, out.String(), file)
}
