package core

import "strings"

// IdempotencyKey checks an idempotency key as every write that takes one
// does: trimmed, MinIdempotencyKeyLength-MaxIdempotencyKeyLength
// characters, no control character. It returns the trimmed key, or
// VALIDATION_ERROR naming idempotencyKey.
func IdempotencyKey(raw string) (string, error) {
	key := strings.TrimSpace(raw)
	if n := len([]rune(key)); n < MinIdempotencyKeyLength || n > MaxIdempotencyKeyLength || HasControl(key) {
		return "", Invalid("idempotencyKey", "must be %d-%d characters", MinIdempotencyKeyLength, MaxIdempotencyKeyLength)
	}
	return key, nil
}
