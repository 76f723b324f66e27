//go:build gcs

package blobstore

import _ "gocloud.dev/blob/gcsblob" // gs:// URLs

// gcsBuilt reports whether this build opens gs:// URLs: it does, with the
// gcs tag.
const gcsBuilt = true
