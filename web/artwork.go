package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"path/filepath"

	"github.com/giftwell/giftwell/core/artwork"
)

// maxArtworkFormBytes bounds the upload form's body: the file (at most
// artwork.MaxFileBytes) and the multipart framing around it.
const maxArtworkFormBytes = artwork.MaxFileBytes + 64<<10

// artworkFormFields name the upload form's fields where core names the
// upload's: the file carries the name, the type and the bytes.
var artworkFormFields = artwork.UploadFields{Filename: "file", Mime: "file", Purpose: "purpose", Body: "file"}

// artworkData is the content of the artwork library page.
type artworkData struct {
	// Items are the workspace's files, newest first.
	Items []artworkItem
	// Max is how many the page lists at most.
	Max int
}

// artworkItem is one file of the library, with what its row shows.
type artworkItem struct {
	artwork.LibraryItem
	// FileURL is the private file (REST, the session's cookie reads it);
	// PreviewURL shows an image inline, "" for a PDF.
	FileURL, PreviewURL string
	// Size is the file's size in words (12.3 KB).
	Size string
}

// artworkLibrary lists the workspace's artwork files with previews.
func (h *handler) artworkLibrary(w http.ResponseWriter, r *http.Request, s session) {
	h.show(w, r, s, "artwork", h.artworkView)
}

// uploadArtwork receives the library's upload form (upload_artwork's
// rules, as the signed-in person) and lists the files again, the new one
// first.
func (h *handler) uploadArtwork(w http.ResponseWriter, r *http.Request, s session) {
	r.Body = http.MaxBytesReader(w, r.Body, maxArtworkFormBytes)
	if err := r.ParseMultipartForm(maxArtworkFormBytes); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			h.message(w, r, http.StatusRequestEntityTooLarge, "File too large", "A file holds at most 5 MB. Make it smaller and upload it again.")
			return
		}
		h.message(w, r, http.StatusBadRequest, "Form not understood", "The form could not be read, so nothing was uploaded. Reload the page and try again.")
		return
	}
	in := artwork.UploadInput{Purpose: r.PostForm.Get("purpose"), Fields: artworkFormFields}
	if file, hdr, err := r.FormFile("file"); err == nil {
		in.Filename, in.Mime = hdr.Filename, hdr.Header.Get("Content-Type")
		if t, _, err := mime.ParseMediaType(in.Mime); err != nil || t == "application/octet-stream" {
			// A browser that does not know the type: the name's extension says it.
			in.Mime = mime.TypeByExtension(filepath.Ext(hdr.Filename))
		}
		in.Body, err = io.ReadAll(io.LimitReader(file, artwork.MaxFileBytes+1))
		_ = file.Close()
		if err != nil {
			in.Body = nil
		}
	}
	a, err := h.app.Artwork.Upload(r.Context(), s.Principal, in)
	if err != nil {
		h.formFailed(w, r, s, "artwork", h.artworkView, err, "file", "purpose")
		return
	}
	http.Redirect(w, r, "/artwork?done=artwork-uploaded#"+a.ID, http.StatusSeeOther)
}

func (h *handler) artworkView(ctx context.Context, s session) (view, error) {
	list, err := h.app.Artwork.List(ctx, s.Principal)
	if err != nil {
		return view{}, err
	}
	base := h.app.Config.BaseURL()
	items := make([]artworkItem, len(list))
	for i, a := range list {
		items[i] = artworkItem{LibraryItem: a, FileURL: base + "/artwork/" + a.ID, Size: fileSize(a.Bytes)}
		if a.Mime != artwork.MimePDF {
			items[i].PreviewURL = items[i].FileURL + "?preview=1"
		}
	}
	return view{Nav: "settings", Data: &artworkData{Items: items, Max: artwork.MaxLibraryItems}}, nil
}

// fileSize writes a size in bytes for people.
func fileSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
