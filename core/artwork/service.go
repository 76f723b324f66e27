// Package artwork keeps a workspace's files: artwork, logos and portraits
// uploaded as bytes or imported from a public image URL. A file's bytes
// live in a BlobStore (cmd/giftwell opens gocloud.dev/blob: a directory
// under the data directory, S3 or GCS); its record, the storage and daily
// limits, and the portraits of gifts live in the database. An upload
// records its intent, writes the blob outside any transaction, then
// records the file ready; a photo import fetches through a PhotoFetcher
// (the webhooks' SSRF guard) before any transaction begins.
package artwork

import (
	"context"
	"errors"

	"github.com/giftwell/giftwell/core"
)

// Service keeps artwork assets and the portraits of gifts.
type Service struct {
	*core.Kernel
	// Blobs stores the files' bytes; cmd/giftwell sets it (internal/blobstore).
	Blobs BlobStore
	// Photos fetches a photo from a public URL; cmd/giftwell sets it
	// (internal/photofetch).
	Photos PhotoFetcher
}

// BlobStore keeps the bytes of files under keys.
type BlobStore interface {
	// Put stores body under key, replacing what was there.
	Put(ctx context.Context, key string, body []byte, contentType string) error
	// Get returns the bytes under key.
	Get(ctx context.Context, key string) ([]byte, error)
	// Delete removes key; a missing key is not an error.
	Delete(ctx context.Context, key string) error
}

// PhotoFetcher fetches an image from a public HTTPS URL: no private
// address, no redirect followed, bounded in time and in size (at most
// MaxFileBytes).
type PhotoFetcher interface {
	FetchPhoto(ctx context.Context, url string) (Fetched, error)
	// Allowed reports whether url is under one of the operator's allowed
	// prefixes, which may be fetched although it is not public https.
	Allowed(url string) bool
}

// Fetched is what a PhotoFetcher got: the answer's status, its
// Content-Type and its body.
type Fetched struct {
	Status      int
	ContentType string
	Body        []byte
}

// errNoBlobStore says the App was built without a blob store.
var errNoBlobStore = errors.New("artwork: no blob store configured")

// blobKey is where an asset's bytes are kept.
func blobKey(workspaceID, assetID string) string { return workspaceID + "/" + assetID }
