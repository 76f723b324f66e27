package main

import (
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/testdb"
)

// serve opens the blob store --blob-url names before it listens, and stops
// at once, without the URL's secrets, when it cannot.
func TestServeRefusesAnUnknownBlobStore(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(giftwellBinary(t), "serve", "--addr", "127.0.0.1:0", "--blob-url", "ftp://user:hunter2@files.example.com/art")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+testdb.NewDSN(t), "GIFTWELL_DATA_DIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "%s", out)
	require.Contains(t, string(out), "blob store ftp://files.example.com/art")
	require.NotContains(t, string(out), "hunter2")
}

// The default store is a directory under the data directory.
func TestServeKeepsArtworkUnderTheDataDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd := exec.Command(giftwellBinary(t), "serve", "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+testdb.NewDSN(t), "GIFTWELL_DATA_DIR="+dir)
	s := startServe(t, cmd)
	require.NoError(t, s.stop())
	info, err := os.Stat(dir + "/blobs")
	require.NoError(t, err)
	require.True(t, info.IsDir())
}
