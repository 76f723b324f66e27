package mcp

import (
	"bytes"
	"errors"

	segjson "github.com/segmentio/encoding/json"
)

// sdkMaxDepth is the go-sdk's bound on JSON nesting (its internal/json).
const sdkMaxDepth = 1000

// errSDKMaxDepth is the go-sdk's error for a value nested deeper than
// sdkMaxDepth, word for word.
var errSDKMaxDepth = errors.New("json: exceeded maximum nesting depth of 1000")

// sdkUnmarshal decodes the JSON value data starts with into v exactly as the
// go-sdk's internal/json.Unmarshal does: the same decoder
// (segmentio/encoding), the same flag (no case-insensitive field matching),
// the same depth bound) for data holding one JSON value. It does so
// without the SDK's stream decoder, which allocates a 32 KiB buffer for
// every call; the wrapper decodes each request once this way, so what it
// routes on is what the SDK would see.
func sdkUnmarshal(data []byte, v any) error {
	if tooDeep(data) {
		return errSDKMaxDepth
	}
	// The SDK's stream decoder hands the decoder the value without the
	// whitespace around it (which error messages quote).
	_, err := segjson.Parse(bytes.Trim(data, " \t\r\n"), v, segjson.DontMatchCaseInsensitiveStructFields)
	return err
}

// tooDeep reports whether data opens more than sdkMaxDepth objects and
// arrays at once, outside strings (the go-sdk's checkMaxDepth).
func tooDeep(data []byte) bool {
	depth, inString, escaped := 0, false, false
	for _, b := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > sdkMaxDepth {
				return true
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return false
}
