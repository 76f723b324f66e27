package apptest

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"testing"

	"github.com/giftwell/giftwell/core/artwork"
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

// ReadyArtwork uploads a 300x300 PNG as the owner, with purpose (artwork,
// logo or portrait), and returns its ready asset's ID.
func (e *Env) ReadyArtwork(t testing.TB, purpose string) string {
	t.Helper()
	ctx := context.Background()
	p, err := e.App.Connect.Authenticate(ctx, e.OwnerKey)
	if err != nil {
		t.Fatalf("apptest: artwork: %v", err)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 300, 300))); err != nil {
		t.Fatalf("apptest: artwork: %v", err)
	}
	a, err := e.App.Artwork.Upload(ctx, p, artwork.UploadInput{Filename: purpose + ".png", Mime: artwork.MimePNG, Purpose: purpose, Body: b.Bytes()})
	if err != nil {
		t.Fatalf("apptest: artwork: %v", err)
	}
	return a.ID
}
