package apptest

import (
	"context"
	"testing"

	"github.com/giftwell/giftwell/internal/blobstore"
)

// setBlobStore gives the App's artwork a directory bucket of the test's own.
func setBlobStore(t testing.TB, e *Env) {
	t.Helper()
	s, err := blobstore.Open(context.Background(), blobstore.DefaultURL(t.TempDir()))
	if err != nil {
		t.Fatalf("apptest: blob store: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	e.App.Artwork.Blobs = s
}
