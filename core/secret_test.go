package core_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

// Derive's layout is fixed: links and webhook secrets already handed out
// are made again from it, so label and parts are NUL-separated exactly as
// when they were first derived.
func TestDeriveLayout(t *testing.T) {
	t.Parallel()
	cfg := core.Config{SecretKey: []byte("0123456789abcdef0123456789abcdef")}
	mac := hmac.New(sha256.New, cfg.SecretKey)
	mac.Write([]byte("giftwell gift link\x00send_1\x002\x00salt"))
	require.Equal(t, mac.Sum(nil), cfg.Derive("giftwell gift link", []byte("send_1"), []byte("2"), []byte("salt")))
	require.Equal(t, base64.RawURLEncoding.EncodeToString(mac.Sum(nil)), cfg.GiftLinkToken("send_1", 2, []byte("salt")))
}
