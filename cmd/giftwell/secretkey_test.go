package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The secret key file is made once (mode 0600) and read back the same
// afterwards; a file that holds anything else is refused, never replaced.
func TestSecretKeyFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "data", "secret.key")
	made, err := loadSecretKey(path)
	require.NoError(t, err)
	require.Len(t, made, 32)
	info, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	again, err := loadSecretKey(path)
	require.NoError(t, err)
	require.Equal(t, made, again)

	require.NoError(t, os.WriteFile(path, []byte("not a key\n"), 0o600))
	_, err = loadSecretKey(path)
	require.ErrorContains(t, err, "must hold 64 hex characters")
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "not a key\n", string(raw), "a bad key file is never overwritten")
}
