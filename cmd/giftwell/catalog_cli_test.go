package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/internal/testdb"
)

// TestCLICatalogImportReadsPictures: catalog import reads the images
// directory beside the catalog file (or --images DIR), hidden files left
// out, and the site serves those pictures; a refused picture refuses the
// import.
func TestCLICatalogImportReadsPictures(t *testing.T) {
	t.Parallel()
	dsn := testdb.NewDSN(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "catalog.json")
	require.NoError(t, os.WriteFile(file, []byte(`[{"id":"desk-lamp","name":"Desk Lamp","priceCents":4500},{"id":"tea-set","name":"Tea Set","priceCents":3900}]`), 0o600))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "images"), 0o700))
	lamp := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 6"><circle cx="4" cy="3" r="2" fill="#E2B54B"/></svg>`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "images", "desk-lamp.svg"), []byte(lamp), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "images", ".DS_Store"), []byte("junk"), 0o600))

	stdout, stderr, code := runCLI(t, dsn, "catalog", "import", file)
	require.Equal(t, 0, code, stderr)
	require.JSONEq(t, `{"products":2,"images":1}`, stdout)

	pool, err := pgxpool.New(t.Context(), dsn)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	store := catalog.NewStore(pool)
	t.Cleanup(store.Close)
	p, err := store.Get(t.Context(), "desk-lamp")
	require.NoError(t, err)
	m, err := store.ImageAt(t.Context(), strings.TrimPrefix(p.Image, catalog.ImagePathPrefix))
	require.NoError(t, err)
	require.Equal(t, lamp, string(m.Image.Data))

	other := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(other, "tea-set.png"), []byte("not a png"), 0o600))
	_, stderr, code = runCLI(t, dsn, "catalog", "import", "--images", other, file)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, `VALIDATION_ERROR: images: "tea-set.png": is not a PNG picture by its content`)

	_, stderr, code = runCLI(t, dsn, "catalog", "import", "--images", filepath.Join(other, "missing"), file)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "catalog pictures")
}
