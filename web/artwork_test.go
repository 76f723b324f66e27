package web_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"net/http"
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
