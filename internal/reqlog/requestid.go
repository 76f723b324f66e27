package reqlog

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"

	"github.com/go-chi/chi/v5/middleware"
)

// MaxRequestIDLength is the longest X-Request-Id a client may choose.
const MaxRequestIDLength = 64

// idPrefix tells this process's request ids from another's.
var idPrefix = rand.Text()[:10]

// RequestID is the request-id middleware: it takes the client's
// X-Request-Id when it is a ValidRequestID, and makes one otherwise (this
// process's random prefix and chi's counter, middleware.NextRequestID), and puts it in the context where
// middleware.GetReqID finds it. A client's id is echoed and logged, so it is
// held to a short, safe alphabet.
func RequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(middleware.RequestIDHeader)
		if !ValidRequestID(id) {
			id = fmt.Sprintf("%s-%06d", idPrefix, middleware.NextRequestID())
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), middleware.RequestIDKey, id)))
	})
}

// ValidRequestID reports whether id is 1 to MaxRequestIDLength characters
// of A-Z, a-z, 0-9 and . _ : - (no spaces, quotes, controls or markup).
func ValidRequestID(id string) bool {
	if id == "" || len(id) > MaxRequestIDLength {
		return false
	}
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_', c == ':', c == '-':
		default:
			return false
		}
	}
	return true
}
