package core_test

import (
	"crypto/sha256"
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

type pageCursor struct {
	After int64  `json:"a"`
	ID    string `json:"i,omitempty"`
}

// The format is base64url(JSON + SHA-256(bind + JSON)[:checkLen]), so
// cursors issued before the helper existed still open.
func TestSealCursorFormat(t *testing.T) {
	t.Parallel()
	payload := []byte(`{"a":7,"i":"x"}`)
	for _, c := range []struct {
		bind     string
		checkLen int
	}{{"", 4}, {"giftwell events cursor\x00ws_1\x00", 8}} {
		sum := sha256.Sum256(append([]byte(c.bind), payload...))
		want := base64.RawURLEncoding.EncodeToString(append(append([]byte{}, payload...), sum[:c.checkLen]...))
		require.Equal(t, want, core.SealCursor(pageCursor{After: 7, ID: "x"}, c.bind, c.checkLen))
	}
}

func TestOpenCursor(t *testing.T) {
	t.Parallel()
	sealed := core.SealCursor(pageCursor{After: 7, ID: "x"}, "ws_1", 8)
	var got pageCursor
	require.True(t, core.OpenCursor(sealed, "ws_1", 8, &got))
	require.Equal(t, pageCursor{After: 7, ID: "x"}, got)

	raw, err := base64.RawURLEncoding.DecodeString(sealed)
	require.NoError(t, err)
	edited := append([]byte{}, raw...)
	edited[5] ^= 1
	sealWith := func(payload, bind string, n int) string {
		sum := sha256.Sum256([]byte(bind + payload))
		return base64.RawURLEncoding.EncodeToString(append([]byte(payload), sum[:n]...))
	}
	for name, cursor := range map[string]string{
		"another bind":    sealed,
		"edited":          base64.RawURLEncoding.EncodeToString(edited),
		"not base64url":   sealed + "!",
		"too short":       base64.RawURLEncoding.EncodeToString(raw[:8]),
		"empty":           "",
		"unknown field":   sealWith(`{"a":7,"z":1}`, "ws_1", 8),
		"two values":      sealWith(`{"a":7}{"a":8}`, "ws_1", 8),
		"not an object":   sealWith(`[7]`, "ws_1", 8),
		"wrong check len": core.SealCursor(pageCursor{After: 7}, "ws_1", 4),
	} {
		var c pageCursor
		bind := "ws_1"
		if name == "another bind" {
			bind = "ws_2"
		}
		require.False(t, core.OpenCursor(cursor, bind, 8, &c), name)
	}
}
