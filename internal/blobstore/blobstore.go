// Package blobstore is core/artwork's BlobStore over gocloud.dev/blob: a
// directory (file://, the default: under the data directory) or S3 and
// the stores that speak its API (s3://: AWS, GCS's interoperability
// endpoint, MinIO, R2), chosen by URL (GIFTWELL_BLOB_URL). GCS's own API
// (gs://) is in a build with the gcs tag (gcs.go): its SDK brings gRPC and
// xDS, which would double the binary's resident memory of every instance
// that never uses it (docs/decisions/0120-a-smaller-server.md).
//
//	store, err := blobstore.Open(ctx, blobstore.DefaultURL(dataDir))
//	if err != nil {
//		return err
//	}
//	defer store.Close()
//	app.Artwork.Blobs = store
package blobstore

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob" // file:// URLs
	_ "gocloud.dev/blob/s3blob" // s3:// URLs
	"gocloud.dev/gcerrors"

	"github.com/giftwell/giftwell/core/artwork"
)

// Store keeps files in one bucket. It is safe for concurrent use.
type Store struct {
	bucket *blob.Bucket
}

var _ artwork.BlobStore = (*Store)(nil)

// DefaultURL is the file:// bucket under dataDir: <dataDir>/blobs,
// created when missing, with no metadata sidecar files.
func DefaultURL(dataDir string) string {
	dir, err := filepath.Abs(filepath.Join(dataDir, "blobs"))
	if err != nil {
		dir = filepath.Join(dataDir, "blobs")
	}
	u := url.URL{Scheme: fileblob.Scheme, Path: filepath.ToSlash(dir), RawQuery: "create_dir=1&metadata=skip"}
	return u.String()
}

// Open opens the bucket at rawURL (file://, s3://, and gs:// in a build
// with the gcs tag; the cloud ones read their credentials as their SDKs
// do). A gs:// URL in a build without GCS says what to do instead.
func Open(ctx context.Context, rawURL string) (*Store, error) {
	if strings.HasPrefix(rawURL, "gs://") && !gcsBuilt {
		return nil, fmt.Errorf("blob store %s: this build has no gs:// driver; use GCS's S3-compatible endpoint (s3://bucket?endpoint=https://storage.googleapis.com&region=auto with an HMAC key in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY), or build with `make build TAGS=gcs`", redact(rawURL))
	}
	b, err := blob.OpenBucket(ctx, rawURL)
	if err != nil {
		// gocloud's error quotes the whole URL: keep its secrets out.
		return nil, fmt.Errorf("blob store %s: %s", redact(rawURL), strings.ReplaceAll(err.Error(), rawURL, redact(rawURL)))
	}
	return &Store{bucket: b}, nil
}

// Put implements artwork.BlobStore.
func (s *Store) Put(ctx context.Context, key string, body []byte, contentType string) error {
	return s.bucket.WriteAll(ctx, key, body, &blob.WriterOptions{ContentType: contentType})
}

// Get implements artwork.BlobStore.
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	return s.bucket.ReadAll(ctx, key)
}

// Delete implements artwork.BlobStore; a missing key is not an error.
func (s *Store) Delete(ctx context.Context, key string) error {
	err := s.bucket.Delete(ctx, key)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil
	}
	return err
}

// Close releases the bucket.
func (s *Store) Close() error { return s.bucket.Close() }

// redact drops a URL's user information and query (which may hold keys)
// for messages.
func redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(unparsable URL)"
	}
	u.User, u.RawQuery = nil, ""
	return u.String()
}
