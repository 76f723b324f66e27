//go:build !gcs

package blobstore

// gcsBuilt reports whether this build opens gs:// URLs: without the gcs
// tag it does not (see the package doc).
const gcsBuilt = false
