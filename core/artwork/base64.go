package artwork

import (
	"encoding/base64"
	"errors"

	"github.com/giftwell/giftwell/core"
)

// DecodeBase64 decodes a file sent as standard base64 (padded), refusing
// truncated or malformed text and a file over MaxFileBytes as
// VALIDATION_ERROR naming field.
func DecodeBase64(s, field string) ([]byte, error) {
	if base64.StdEncoding.DecodedLen(len(s)) > MaxFileBytes+3 {
		return nil, core.Invalid(field, "decodes to more than 5 MiB (%d bytes)", MaxFileBytes)
	}
	b, err := base64.StdEncoding.Strict().DecodeString(s)
	if err != nil {
		var at base64.CorruptInputError
		if errors.As(err, &at) {
			return nil, core.Invalid(field, "is not valid base64 (truncated or malformed at character %d)", int64(at))
		}
		return nil, core.Invalid(field, "is not valid base64")
	}
	return b, nil
}
