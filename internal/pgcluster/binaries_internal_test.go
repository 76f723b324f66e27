package pgcluster

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// Not parallel: it changes PATH and the package's search location.
func TestFindBinariesOrder(t *testing.T) {
	root := t.TempDir()
	for _, v := range []string{"9.6", "15", "13"} {
		dir := filepath.Join(root, v, "bin")
		require.NoError(t, os.MkdirAll(dir, 0o755))
		for _, p := range programs {
			require.NoError(t, os.WriteFile(filepath.Join(dir, p), []byte("#!/bin/sh\n"), 0o755))
		}
	}
	old := debianGlob
	t.Cleanup(func() { debianGlob = old })
	debianGlob = filepath.Join(root, "*", "bin")
	t.Setenv("PATH", t.TempDir())

	b, err := FindBinaries()
	require.NoError(t, err)
	require.Equal(t, filepath.Join(root, "15", "bin"), b.Dir, "the newest version wins")

	debianGlob = filepath.Join(root, "none", "*", "bin")
	_, err = FindBinaries()
	require.ErrorIs(t, err, ErrNoBinaries)
	require.Contains(t, err.Error(), "apt-get install postgresql")
	require.Contains(t, err.Error(), "initdb, pg_ctl, postgres")
}
