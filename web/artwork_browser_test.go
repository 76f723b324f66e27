package web_test

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestBrowserArtworkUpload: a person picks a logo on the library page and
// uploads it; it is listed first with its preview.
func TestBrowserArtworkUpload(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	h := newHarness(t)
	var img bytes.Buffer
	require.NoError(t, png.Encode(&img, image.NewGray(image.Rect(0, 0, 320, 300))))
	file := filepath.Join(t.TempDir(), "Acme logo.png")
	require.NoError(t, os.WriteFile(file, img.Bytes(), 0o600))

	b.signIn(h.site, h.env.OwnerEmail)
	b.open(h.site + "/artwork")
	b.do(chromedp.SetUploadFiles(chromedp.ID("file"), []string{file}),
		chromedp.SetValue(chromedp.ID("purpose"), "logo"))
	require.EqualValues(t, 200, b.submit("#artwork-upload-button"))
	require.Contains(t, b.text(`.alert-success[role="status"]`), "The file was uploaded")
	require.Equal(t, "Acme logo.png", b.text("#artwork tbody tr:first-child td:nth-child(2) a"))
	require.Contains(t, b.text("#artwork tbody tr:first-child td:nth-child(5)"), "logo")
	b.screenshot("artwork-uploaded")
}
