package web

import (
	"bytes"
	"errors"
	"io"
	"net/http"

	"github.com/giftwell/giftwell/internal/httpbody"
)

// maxFormBytes bounds a form's body. The longest form (settings) is well
// under it; a larger body is refused before any field is read.
const maxFormBytes = 64 << 10

// parseForm reads the posted form into r.PostForm. It answers 413 for a
// body over maxFormBytes (read and thrown away first, up to
// httpbody.MaxDrainBytes, so that the browser shows the page), 400 for a
// malformed one and 400 naming the field for a value holding a NUL or bytes
// that are not UTF-8 (tools.HostileText), and then returns false.
func (h *handler) parseForm(w http.ResponseWriter, r *http.Request) bool {
	body, err := httpbody.Read(w, r, maxFormBytes)
	if err == nil {
		r.Body = io.NopCloser(bytes.NewReader(body))
		err = r.ParseForm()
	}
	if err == nil {
		if field, bad := hostileField(r.PostForm); bad {
			h.message(w, r, http.StatusBadRequest, "Form not understood",
				"The form's "+field+" holds a character Giftwell cannot save (a NUL or bytes that are not UTF-8), so nothing was saved. Correct it and try again.")
			return false
		}
		return true
	}
	if errors.Is(err, httpbody.ErrTooLarge) {
		h.message(w, r, http.StatusRequestEntityTooLarge, "Form too large",
			"The form sent more than 64 KB, so nothing was saved. Shorten the text and try again.")
		return false
	}
	h.message(w, r, http.StatusBadRequest, "Form not understood", "The form could not be read, so nothing was saved. Reload the page and try again.")
	return false
}
