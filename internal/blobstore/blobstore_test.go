package blobstore_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/blobstore"
)

// TestFileStore puts, reads and deletes a file in the default directory
// bucket, which it creates.
func TestFileStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := blobstore.Open(ctx, blobstore.DefaultURL(t.TempDir()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })

	require.NoError(t, s.Put(ctx, "ws_1/asset_1", []byte("bytes"), "image/png"))
	got, err := s.Get(ctx, "ws_1/asset_1")
	require.NoError(t, err)
	require.Equal(t, "bytes", string(got))
	require.NoError(t, s.Delete(ctx, "ws_1/asset_1"))
	require.NoError(t, s.Delete(ctx, "ws_1/asset_1"), "a missing key is not an error")
	_, err = s.Get(ctx, "ws_1/asset_1")
	require.Error(t, err)
}

// TestOpenRefusesUnknownScheme names the URL without its secrets.
func TestOpenRefusesUnknownScheme(t *testing.T) {
	t.Parallel()
	_, err := blobstore.Open(context.Background(), "ftp://user:secret@example.com/x?key=k")
	require.Error(t, err)
	require.NotContains(t, err.Error(), "secret")
}
