package main

import (
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/go-chi/chi/v5/middleware"
)

// newLogger writes JSON log lines to standard error.
func newLogger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// requestLog logs one line per request with its request id (set by
// middleware.RequestID and echoed in X-Request-Id), and turns a panic into a
// logged 500.
func requestLog(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			id := middleware.GetReqID(r.Context())
			w.Header().Set("X-Request-Id", id)
			ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
			defer func() {
				if rec := recover(); rec != nil {
					if rec == http.ErrAbortHandler {
						panic(rec)
					}
					log.ErrorContext(r.Context(), "panic", "request_id", id, "panic", rec)
					if ww.Status() == 0 {
						ww.WriteHeader(http.StatusInternalServerError)
					}
				}
				log.InfoContext(r.Context(), "request",
					"request_id", id, "method", r.Method, "path", loggedPath(r.URL.Path),
					"status", ww.Status(), "bytes", ww.BytesWritten(), "duration_ms", time.Since(start).Milliseconds())
			}()
			next.ServeHTTP(ww, r)
		})
	}
}

// secretPaths are path prefixes whose next segment is a secret (an
// invitation token today; gift links later). Logs show the prefix only.
var secretPaths = []string{"/invite/"}

// loggedPath is the request path as logs show it: secrets in the path are
// replaced, so a log reader cannot use them.
func loggedPath(path string) string {
	for _, prefix := range secretPaths {
		if strings.HasPrefix(path, prefix) && len(path) > len(prefix) {
			return prefix + "[redacted]"
		}
	}
	return path
}
