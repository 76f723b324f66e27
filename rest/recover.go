package rest

import (
	"fmt"
	"net/http"
	"runtime/debug"

	"github.com/giftwell/giftwell/core"
)

// recoverPanics turns a panic anywhere below it into INTERNAL_ERROR, logged
// with its stack, unless the response had already begun.
func (s *server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tw := &trackingWriter{ResponseWriter: w}
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			err := core.Internal(fmt.Errorf("panic: %v\n%s", v, debug.Stack()))
			if tw.wrote {
				s.log.ErrorContext(r.Context(), "rest: panic after the response began", "err", err)
				return
			}
			s.fail(w, r, err)
		}()
		next.ServeHTTP(tw, r)
	})
}

// trackingWriter notes whether the response has begun.
type trackingWriter struct {
	http.ResponseWriter
	wrote bool
}

func (t *trackingWriter) WriteHeader(status int) {
	t.wrote = true
	t.ResponseWriter.WriteHeader(status)
}

func (t *trackingWriter) Write(b []byte) (int, error) {
	t.wrote = true
	return t.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (t *trackingWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }
