package artwork_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/internal/apptest"
)

// stopAfterPut is a blob store whose process "stops" once the bytes are
// written: it cancels the upload's context, so the asset is never
// recorded ready.
type stopAfterPut struct {
	artwork.BlobStore
	cancel context.CancelFunc
	mu     sync.Mutex
	keys   []string
}

func (s *stopAfterPut) Put(ctx context.Context, key string, body []byte, contentType string) error {
	err := s.BlobStore.Put(ctx, key, body, contentType)
	s.mu.Lock()
	s.keys = append(s.keys, key)
	s.mu.Unlock()
	s.cancel()
	return err
}

// TestSweepRemovesUnfinishedUploads: an upload stopped between its intent
// and its record leaves a pending asset and its bytes, which count against
// the workspace's storage for an hour; then the sweep removes both, and
// leaves finished uploads and uploads still under way alone.
func TestSweepRemovesUnfinishedUploads(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx, p := context.Background(), owner(t, env)
	finished := env.ReadyArtwork(t, "artwork")
	blobs := env.App.Artwork.Blobs
	stopped := func() string {
		t.Helper()
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		s := &stopAfterPut{BlobStore: blobs, cancel: cancel}
		env.App.Artwork.Blobs = s
		defer func() { env.App.Artwork.Blobs = blobs }()
		_, err := env.App.Artwork.Upload(cctx, p, artwork.UploadInput{Filename: "stopped.png", Mime: artwork.MimePNG, Body: pngOf(t, 300, 300)})
		require.Error(t, err)
		require.Len(t, s.keys, 1)
		return s.keys[0]
	}
	old := stopped()
	_, err := blobs.Get(ctx, old)
	require.NoError(t, err, "the bytes were written")

	n, err := env.App.Artwork.SweepPending(ctx)
	require.NoError(t, err)
	require.Zero(t, n, "an upload under way is not swept")

	env.Clock.Advance(2 * time.Hour)
	recent := stopped()
	n, err = env.App.Artwork.SweepPending(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	_, err = blobs.Get(ctx, old)
	require.Error(t, err, "the stale upload's bytes are gone")
	_, err = blobs.Get(ctx, recent)
	require.NoError(t, err, "the recent upload's bytes stay")
	f, err := env.App.Artwork.Get(ctx, p, finished)
	require.NoError(t, err)
	require.NotEmpty(t, f.Body, "a finished upload stays")

	n, err = env.App.Artwork.SweepPending(ctx)
	require.NoError(t, err)
	require.Zero(t, n, "nothing left to sweep")
}
