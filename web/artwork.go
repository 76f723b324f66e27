package web

import (
	"context"
	"fmt"
	"net/http"

	"github.com/giftwell/giftwell/core/artwork"
)

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
