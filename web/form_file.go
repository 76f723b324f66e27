package web

import (
	"errors"
	"io"
	"mime/multipart"
	"net/http"
)

// fileForm is a form posting one file (multipart): the file's field and
// bound, and what its refusals say.
type fileForm struct {
	// field names the file's form field.
	field string
	// maxBytes bounds the file; the body may carry maxFormBytes of the
	// other fields and the framing besides.
	maxBytes int64
	// tooLarge is the text of the 413 page; notRead finishes "The form
	// could not be read, so nothing was ..." (uploaded, imported).
	tooLarge, notRead string
}

// readFileForm parses f's form into r.PostForm and reads its file: at most
// maxBytes+1 bytes, so that the service the bytes go to refuses a longer
// file by name; nil when the form has none or it could not be read. It
// answers 413 for a body over the bound (as soon as it passes it) and 400
// for a malformed one, and then returns false.
func (h *handler) readFileForm(w http.ResponseWriter, r *http.Request, f fileForm) (body []byte, hdr *multipart.FileHeader, ok bool) {
	limit := f.maxBytes + maxFormBytes
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	if err := r.ParseMultipartForm(limit); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			h.message(w, r, http.StatusRequestEntityTooLarge, "File too large", f.tooLarge)
			return nil, nil, false
		}
		h.message(w, r, http.StatusBadRequest, "Form not understood", "The form could not be read, so nothing was "+f.notRead+". Reload the page and try again.")
		return nil, nil, false
	}
	file, hdr, err := r.FormFile(f.field)
	if err != nil {
		return nil, nil, true
	}
	defer file.Close()
	if body, err = io.ReadAll(io.LimitReader(file, f.maxBytes+1)); err != nil {
		body = nil
	}
	return body, hdr, true
}
