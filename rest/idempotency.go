package rest

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// idempotent is the request rule of a REST write (POST, PATCH, DELETE)
// that carries an Idempotency-Key header (core.ClaimRequest): the first
// request with the key runs and its answer is kept; a retry of the same
// request gets that answer again, marked Idempotent-Replayed: true; the key
// with another method, path or body is 409 IDEMPOTENCY_CONFLICT. An answer
// a retry may mend (429, 5xx) is not kept: the key is given back. Without
// the header, or without a workspace (public routes), nothing changes.
func (s *server) idempotent(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, sent := r.Header[http.CanonicalHeaderKey(core.IdempotencyHeader)]
		p := principalFrom(r)
		if !sent || p.WorkspaceID == "" || s.app == nil {
			next.ServeHTTP(w, r)
			return
		}
		key, err := core.CheckIdempotencyHeader(raw[0])
		if err == nil && len(raw) > 1 {
			err = core.Invalid(core.IdempotencyHeader, "must be sent once")
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
		body, err := json.Marshal(bodyFrom(r.Context())) // canonical: keys sorted
		if err != nil {
			s.fail(w, r, core.Internal(err))
			return
		}
		req := core.IdempotentRequest{WorkspaceID: p.WorkspaceID, Key: key, Method: r.Method, Path: r.URL.RequestURI(), Body: body}
		claimed, answer, err := s.app.ClaimRequest(r.Context(), req)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if !claimed {
			h := w.Header()
			h.Set("Content-Type", answer.ContentType)
			h.Set("Idempotent-Replayed", "true")
			w.WriteHeader(answer.Status)
			_, _ = w.Write(answer.Body)
			return
		}
		rec := &recorder{ResponseWriter: w}
		kept := false
		defer func() {
			if !kept {
				if err := s.app.ReleaseRequest(r.Context(), req); err != nil {
					s.log.ErrorContext(r.Context(), "idempotency: release key", "err", err)
				}
			}
		}()
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		if rec.status == http.StatusTooManyRequests || rec.status >= 500 {
			return
		}
		if err := s.app.FinishRequest(r.Context(), req, core.StoredAnswer{
			Status: rec.status, ContentType: rec.Header().Get("Content-Type"), Body: rec.body.Bytes(),
		}); err != nil {
			s.log.ErrorContext(r.Context(), "idempotency: keep answer", "err", err)
			return
		}
		kept = true
	})
}

// recorder passes an answer through and keeps a copy of its status and
// body for the key's retries.
type recorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

// WriteHeader records the status.
func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

// Write keeps a copy of the body.
func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	r.body.Write(b)
	return r.ResponseWriter.Write(b)
}

// takesIdempotencyKey reports whether op is a write the Idempotency-Key
// header applies to: a POST, PUT, PATCH or DELETE with credentials, whose
// body is JSON (the raw uploads name their own chunks and files).
func takesIdempotencyKey(op *operation) bool {
	switch op.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return op.Credentials != tools.CredentialsNone && op.Raw == nil
	}
	return false
}
