package mcp_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

// TestUploadArtworkOverMCP: an agent uploads a PNG as base64; an SVG,
// truncated base64 and base64 over 900,000 characters are refused naming
// their field.
func TestUploadArtworkOverMCP(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := agent{t: t, cs: b.connect(t, "/mcp", b.env.OwnerKey, "")}
	var img bytes.Buffer
	require.NoError(t, png.Encode(&img, image.NewGray(image.Rect(0, 0, 300, 300))))
	enc := base64.StdEncoding.EncodeToString(img.Bytes())

	got := a.ok("upload_artwork", map[string]any{"filename": "ana.png", "mime": "image/png", "base64": enc, "purpose": "portrait"})
	require.True(t, strings.HasPrefix(got["id"].(string), "asset_"))
	require.EqualValues(t, img.Len(), got["bytes"])

	svg := a.fails("upload_artwork", map[string]any{"filename": "a.svg", "mime": "image/svg+xml", "base64": base64.StdEncoding.EncodeToString([]byte("<svg/>"))}, core.CodeValidation)
	require.Contains(t, svg["error"], "mime: ")
	cut := a.fails("upload_artwork", map[string]any{"filename": "ana.png", "mime": "image/png", "base64": enc[:len(enc)-5]}, core.CodeValidation)
	require.Contains(t, cut["error"], "base64: is not valid base64")
	big := a.fails("upload_artwork", map[string]any{"filename": "ana.png", "mime": "image/png", "base64": strings.Repeat("A", 900_004)}, core.CodeValidation)
	require.Contains(t, big["error"], "base64")
}
