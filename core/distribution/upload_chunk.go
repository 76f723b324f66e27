package distribution

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/giftwell/giftwell/core"
)

// Bounds of a chunked upload (the spec's limits table, core's limits that
// the workflow guide reports).
const (
	// MaxPartBytes is the most one part holds, decoded.
	MaxPartBytes = core.SourceUploadPartBytes
	// MaxPartBase64 is the longest base64 data of one part.
	MaxPartBase64 = 200_000
	// MaxParts is the most parts of one upload.
	MaxParts = core.SourceUploadParts
	// MaxUploadBytes is the most one upload holds (32 MiB).
	MaxUploadBytes = core.SourceUploadSerializedBytes
	// MaxStagedUploads is the most uploads a workspace stages at once.
	MaxStagedUploads = 4
	// MaxStagedBytes is the most bytes a workspace stages at once (64 MiB).
	MaxStagedBytes = 64 << 20
	// MaxUploadIDLength is the longest uploadId or importId.
	MaxUploadIDLength = 100
	// LastPartRetryMs is the retryAfterMs of a last part that arrived
	// before the others: resend it after this long.
	LastPartRetryMs = 1000
)

// Chunk is one part of a chunked upload, as upload_gift_source_chunk takes it.
type Chunk struct {
	UploadID   string `json:"uploadId" jsonschema:"your ID for the upload (letters, digits, _ - .); resend a timed-out part with the same uploadId, metadata and bytes" schema:"minLength=1,maxLength=100"`
	PartIndex  int    `json:"partIndex" jsonschema:"this part's position, from 0" schema:"minimum=0,maximum=383"`
	PartCount  int    `json:"partCount" jsonschema:"how many parts the upload has" schema:"minimum=1,maximum=384"`
	TotalBytes int64  `json:"totalBytes" jsonschema:"the whole file's size in bytes, before base64" schema:"minimum=1,maximum=33554432"`
	Data       string `json:"data" jsonschema:"this part's bytes in base64 (standard alphabet, padded), at most 150,000 bytes decoded" schema:"minLength=1,maxLength=200000,contentEncoding=base64"`
}

// checkID checks an uploadId or importId: 1-100 letters, digits, _, - or ..
func checkID(field, id string) error {
	if id == "" || len(id) > MaxUploadIDLength {
		return core.Invalid(field, "must be 1 to %d characters", MaxUploadIDLength)
	}
	return plainChars(field, id)
}

// plainChars refuses, naming field, a value holding anything but ASCII
// letters, digits, _, - and . (an ID, a column prefix).
func plainChars(field, v string) error {
	for _, c := range []byte(v) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.') {
			return core.Invalid(field, "may hold only letters, digits, _, - and .")
		}
	}
	return nil
}

// decode checks the chunk's metadata and decodes its data. It returns
// VALIDATION_ERROR naming uploadId, partCount, partIndex, totalBytes or
// data (not base64, truncated, empty, over MaxPartBytes, or more than the
// parts can hold).
func (c Chunk) decode() ([]byte, error) {
	if err := checkID("uploadId", c.UploadID); err != nil {
		return nil, err
	}
	if c.PartCount < 1 || c.PartCount > MaxParts {
		return nil, core.Invalid("partCount", "must be between 1 and %d", MaxParts)
	}
	if c.PartIndex < 0 || c.PartIndex >= c.PartCount {
		return nil, core.Invalid("partIndex", "must be between 0 and partCount-1 (%d)", c.PartCount-1)
	}
	if c.TotalBytes < 1 || c.TotalBytes > MaxUploadBytes {
		return nil, core.Invalid("totalBytes", "must be between 1 and %d bytes", MaxUploadBytes)
	}
	if c.TotalBytes > int64(c.PartCount)*MaxPartBytes {
		return nil, core.Invalid("totalBytes", "is more than %d parts of at most %d bytes can hold", c.PartCount, MaxPartBytes)
	}
	if c.TotalBytes < int64(c.PartCount) {
		return nil, core.Invalid("totalBytes", "is less than one byte per part (%d parts)", c.PartCount)
	}
	if len(c.Data) > MaxPartBase64 {
		return nil, core.Invalid("data", "must be at most %d base64 characters (%d bytes decoded)", MaxPartBase64, MaxPartBytes)
	}
	data, err := base64.StdEncoding.Strict().DecodeString(strings.TrimSpace(c.Data))
	if err != nil {
		return nil, core.Invalid("data", "is not base64 (standard alphabet, padded): %s", base64Problem(err))
	}
	switch {
	case len(data) == 0:
		return nil, core.Invalid("data", "is empty; every part holds at least one byte")
	case len(data) > MaxPartBytes:
		return nil, core.Invalid("data", "holds %d bytes; a part holds at most %d", len(data), MaxPartBytes)
	case int64(len(data)) > c.TotalBytes:
		return nil, core.Invalid("totalBytes", "is %d but this part alone holds %d bytes", c.TotalBytes, len(data))
	}
	return data, nil
}

// base64Problem says where base64 decoding failed, without echoing input.
func base64Problem(err error) string {
	if e, ok := err.(base64.CorruptInputError); ok {
		return fmt.Sprintf("bad or truncated input at character %d", int64(e))
	}
	return "bad input"
}

// assemble joins an upload's parts in order and checks them against its
// metadata: partCount parts holding totalBytes in all. It
// returns VALIDATION_ERROR naming totalBytes or uploadId.
func assemble(parts [][]byte, partCount int, totalBytes int64) ([]byte, error) {
	if len(parts) != partCount {
		return nil, core.Invalid("uploadId", "has %d of its %d parts", len(parts), partCount)
	}
	var n int64
	for _, p := range parts {
		n += int64(len(p))
	}
	if n != totalBytes {
		return nil, core.Invalid("totalBytes", "is %d but the parts hold %d bytes; start again with a new uploadId", totalBytes, n)
	}
	out := make([]byte, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out, nil
}
