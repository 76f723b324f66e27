package main

import (
	"context"
	"flag"
	"log/slog"
	"strings"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/internal/blobstore"
	"github.com/giftwell/giftwell/internal/photofetch"
)

// serveBlobFlag adds --blob-url: where artwork files are kept.
func serveBlobFlag(fs *flag.FlagSet, cfg *serveConfig) {
	fs.StringVar(&cfg.blobURL, "blob-url", env("GIFTWELL_BLOB_URL", ""),
		"where artwork files are kept: file:///dir or s3://bucket?region=... (gs://bucket in a build with TAGS=gcs); default a directory blobs under --data-dir (env GIFTWELL_BLOB_URL)")
}

// configureArtwork opens the blob store (--blob-url, or a directory under
// the data directory) and gives artwork the photo fetcher, under the
// webhooks' SSRF rule and allowed prefixes. It returns the store's closer.
func (cfg serveConfig) configureArtwork(ctx context.Context, app *giftwell.App, log *slog.Logger) (closeStore func(), err error) {
	u := cfg.blobURL
	if u == "" {
		u = blobstore.DefaultURL(cfg.dataDir)
	}
	store, err := blobstore.Open(ctx, u)
	if err != nil {
		return nil, err
	}
	photos, err := photofetch.New(photofetch.Options{AllowPrefixes: cfg.webhookPrefixes()})
	if err != nil {
		_ = store.Close()
		return nil, err
	}
	app.Artwork.Blobs, app.Artwork.Photos = store, photos
	log.Info("artwork files", "blob_store", redactedScheme(u))
	return func() { _ = store.Close() }, nil
}

// redactedScheme names a blob URL by its scheme only, for the log.
func redactedScheme(u string) string {
	if scheme, _, ok := strings.Cut(u, ":"); ok {
		return scheme
	}
	return "?"
}
