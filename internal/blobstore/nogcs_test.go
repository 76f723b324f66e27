//go:build !gcs

package blobstore_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/blobstore"
)

// A build without the gcs tag refuses a gs:// URL with the way to GCS it
// has (its S3-compatible endpoint) and the build that has gs://, and
// never echoes the URL's query.
func TestOpenGSWithoutTheGCSBuild(t *testing.T) {
	t.Parallel()
	_, err := blobstore.Open(context.Background(), "gs://artwork-bucket?access_id=secret-id")
	require.ErrorContains(t, err, "s3://bucket?endpoint=https://storage.googleapis.com")
	require.ErrorContains(t, err, "make build TAGS=gcs")
	require.NotContains(t, err.Error(), "secret-id")
}
