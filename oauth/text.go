package oauth

import (
	"net/http"
	"net/url"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// hostileRequest is the OAuth face's edge for hostile text (a NUL character
// or bytes that are not UTF-8, tools.HostileText), which the database
// cannot store: it reads the form as fosite will (query, url-encoded or
// multipart body) and judges every parameter and the client credentials of
// HTTP Basic authentication (URL-decoded, as fosite decodes them). It
// returns the refusal, a VALIDATION_ERROR naming the parameter, or nil.
// Each endpoint answers it in its own protocol's words (invalid_request).
func hostileRequest(r *http.Request) *core.Error {
	// A malformed form is fosite's to refuse; what could be read of it is
	// judged here, as fosite would read it on.
	_ = r.ParseMultipartForm(1 << 20)
	if err := tools.CheckValues(r.Form); err != nil {
		return core.AsError(err)
	}
	if id, secret, ok := r.BasicAuth(); ok {
		creds := url.Values{"client_id": {id}, "client_secret": {secret}}
		for k, v := range creds {
			if u, err := url.QueryUnescape(v[0]); err == nil {
				creds[k] = append(creds[k], u)
			}
		}
		if err := tools.CheckValues(creds); err != nil {
			return core.AsError(err)
		}
	}
	return nil
}
