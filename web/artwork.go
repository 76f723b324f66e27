package web

import (
	"context"
	"fmt"
	"mime"
	"net/http"
	"path/filepath"

	"github.com/giftwell/giftwell/core/artwork"
)

// artworkForm is the library's upload form: one file of at most
// artwork.MaxFileBytes.
var artworkForm = fileForm{field: "file", maxBytes: artwork.MaxFileBytes, notRead: "uploaded",
	tooLarge: "A file holds at most 5 MB. Make it smaller and upload it again."}

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
	body, hdr, ok := h.readFileForm(w, r, artworkForm)
	if !ok {
		return
	}
	in := artwork.UploadInput{Purpose: r.PostForm.Get("purpose"), Fields: artworkFormFields, Body: body}
	if hdr != nil {
		in.Filename, in.Mime = hdr.Filename, hdr.Header.Get("Content-Type")
		if t, _, err := mime.ParseMediaType(in.Mime); err != nil || t == "application/octet-stream" {
			// A browser that does not know the type: the name's extension says it.
			in.Mime = mime.TypeByExtension(filepath.Ext(hdr.Filename))
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
