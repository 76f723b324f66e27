package web_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/artwork"
)

// TestArtworkLibraryListsFilesWithPreviews: the library lists the
// workspace's files, newest first, an image with its inline preview and a
// PDF without one; nobody signed out sees it.
func TestArtworkLibraryListsFilesWithPreviews(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx, p := context.Background(), h.ownerPrincipal()
	var img bytes.Buffer
	require.NoError(t, png.Encode(&img, image.NewGray(image.Rect(0, 0, 320, 300))))
	logo, err := h.env.App.Artwork.Upload(ctx, p, artwork.UploadInput{Filename: "Acme logo.png", Mime: artwork.MimePNG, Purpose: "logo", Body: img.Bytes()})
	require.NoError(t, err)
	h.env.Clock.Advance(time.Minute)
	proof, err := h.env.App.Artwork.Upload(ctx, p, artwork.UploadInput{Filename: "proof.pdf", Mime: artwork.MimePDF, Body: []byte("%PDF-1.7\n")})
	require.NoError(t, err)

	anon := h.client().get("/artwork")
	require.Equal(t, http.StatusSeeOther, anon.StatusCode)

	c := h.client()
	c.signIn(h.env.OwnerEmail)
	res := c.get("/artwork")
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Contains(t, res.Body, `<img class="artwork-preview" src="`+h.site+`/api/v1/artwork/`+logo.ID+`?preview=1" alt="Preview of Acme logo.png"`)
	require.Contains(t, res.Body, `href="`+h.site+`/api/v1/artwork/`+proof.ID+`" download>proof.pdf</a>`)
	require.NotContains(t, res.Body, proof.ID+"?preview=1", "a PDF has no inline preview")
	require.Contains(t, res.Body, "320×300")
	require.Less(t, bytes.Index([]byte(res.Body), []byte(proof.ID)), bytes.Index([]byte(res.Body), []byte(logo.ID)), "newest first")

	empty := h.client()
	other := h.env.AddPerson(t, "member")
	empty.signIn(other.Email)
	require.Contains(t, empty.get("/artwork").Body, logo.ID, "the library is the workspace's, not one person's")
}

// postArtwork sends the artwork form: the file with its part's type, and
// the purpose.
func (c *client) postArtwork(name, contentType string, content []byte, purpose string) response {
	c.h.t.Helper()
	return c.postFile("/artwork", "file", name, contentType, content, map[string]string{"purpose": purpose})
}

// TestArtworkLibraryUploads: a signed-in person uploads a file from the
// library page, with its use; the checks of upload_artwork refuse a file
// that is not what its name says next to the field, and nothing is stored.
func TestArtworkLibraryUploads(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.client()
	c.signIn(h.env.OwnerEmail)
	page := c.get("/artwork")
	require.Contains(t, page.Body, `id="artwork-upload"`)
	require.Contains(t, page.Body, `enctype="multipart/form-data"`)

	var img bytes.Buffer
	require.NoError(t, png.Encode(&img, image.NewGray(image.Rect(0, 0, 300, 300))))
	res := c.postArtwork("Team photo.png", "image/png", img.Bytes(), "portrait")
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	loc := res.Header.Get("Location")
	require.True(t, strings.HasPrefix(loc, "/artwork?done=artwork-uploaded#asset_"), loc)
	id := strings.TrimPrefix(loc, "/artwork?done=artwork-uploaded#")
	list, err := h.env.App.Artwork.List(context.Background(), h.ownerPrincipal())
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, id, list[0].ID)
	require.EqualValues(t, artwork.PurposePortrait, list[0].Purpose)
	done := c.get(loc)
	require.Contains(t, done.Body, "The file was uploaded")
	require.Contains(t, done.Body, `<tr id="`+id+`">`)

	// A browser that does not know the type: the extension says it.
	res = c.postArtwork("proof.pdf", "application/octet-stream", []byte("%PDF-1.7\n"), "artwork")
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)

	// HTML dressed as a PNG is refused next to the file field.
	res = c.postArtwork("evil.png", "image/png", []byte("<!doctype html><script>alert(1)</script>"), "artwork")
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	require.Contains(t, res.Body, `id="file-error"`)
	list, err = h.env.App.Artwork.List(context.Background(), h.ownerPrincipal())
	require.NoError(t, err)
	require.Len(t, list, 2, "nothing more was stored")

	// A file over 5 MB is refused whole.
	res = c.postArtwork("big.png", "image/png", bytes.Repeat([]byte{0}, artwork.MaxFileBytes+100<<10), "artwork")
	require.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode, res.Body)
}
