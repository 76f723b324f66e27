package main

import (
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/go-chi/chi/v5/middleware"

	"github.com/giftwell/giftwell/internal/metrics"
	"github.com/giftwell/giftwell/internal/reqlog"
)

// newLogger writes JSON log lines to standard error.
func newLogger() *slog.Logger { return newLoggerTo(os.Stderr) }

// newLoggerTo writes JSON log lines to w. Every record logged with a
// request's context (core's included: it logs through the same logger with
// the caller's ctx) carries the request id.
func newLoggerTo(w io.Writer) *slog.Logger {
	return slog.New(reqlog.NewHandler(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo})))
}

// requestLog writes the one access-log line of each request, with its
// request id (set by reqlog.RequestID and echoed in X-Request-Id) and
// what the faces added to the request's reqlog.Entry (MCP: mount, profile,
// JSON-RPC methods, names, outcome code, workspace); counts the request in
// m by the face and route the Entry names; and turns a panic into a logged
// 500. The durations are wall time on purpose: they measure, they are not
// the service's clock.
func requestLog(log *slog.Logger, m *metrics.Metrics) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			id := middleware.GetReqID(r.Context())
			w.Header().Set("X-Request-Id", id)
			ctx, entry := reqlog.Start(r.Context())
			r = r.WithContext(ctx)
			ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
			defer func() {
				if rec := recover(); rec != nil {
					if rec == http.ErrAbortHandler {
						panic(rec)
					}
					log.ErrorContext(r.Context(), "panic", reqlog.IDKey, id, "panic", rec)
					if ww.Status() == 0 {
						ww.WriteHeader(http.StatusInternalServerError)
					}
				}
				status := ww.Status()
				if status == 0 {
					status = http.StatusOK // nothing written: net/http answers 200
				}
				d := time.Since(start)
				face, route := entry.Route()
				if face == "" {
					face, route = "site", "unmatched"
				}
				m.ObserveRequest(face, route, status, d)
				level := slog.LevelInfo
				if status >= 500 {
					level = slog.LevelError
				}
				log.LogAttrs(r.Context(), level, "request", append([]slog.Attr{
					slog.String(reqlog.IDKey, id), slog.String("method", r.Method), slog.String("path", loggedPath(r.URL.Path)),
					slog.Int("status", status), slog.Int("bytes", ww.BytesWritten()),
					slog.Int64("duration_ms", d.Milliseconds()), slog.String("face", face),
				}, entry.Attrs()...)...)
			}()
			next.ServeHTTP(ww, r)
		})
	}
}

// secretPaths are path prefixes whose next segment is a secret (an
// invitation token or a gift link's). Logs show the prefix only.
var secretPaths = []string{"/invite/", "/g/"}

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
