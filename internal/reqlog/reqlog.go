// Package reqlog carries what one HTTP request's access-log line reports.
// The server's outer middleware starts an Entry for each request (Start)
// and writes the one access-log line when the request ends; any face the
// request reaches adds its own details to that Entry (From(ctx).Add) and
// names the route it served (SetRoute), without importing the server.
//
// Handler is the slog.Handler wrapper that puts the request id on every
// record logged with a request's context.
package reqlog

import (
	"context"
	"log/slog"
	"sync"
)

// Entry is one request's contribution to its access-log line: the face and
// route that served it, for the metrics and the log, and the attributes the
// faces added. The zero value is usable; a nil *Entry ignores every call.
// Safe for concurrent use (tool handlers run on their own goroutines).
type Entry struct {
	mu    sync.Mutex
	face  string
	route string
	attrs []slog.Attr
}

type entryKey struct{}

// Start returns ctx carrying a new Entry, and the Entry.
func Start(ctx context.Context) (context.Context, *Entry) {
	e := &Entry{}
	return context.WithValue(ctx, entryKey{}, e), e
}

// From returns the Entry of the request ctx belongs to, or nil when ctx has
// none (a face served on its own, as in its tests).
func From(ctx context.Context) *Entry {
	e, _ := ctx.Value(entryKey{}).(*Entry)
	return e
}

// Add appends attributes to the access-log line.
func (e *Entry) Add(attrs ...slog.Attr) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.attrs = append(e.attrs, attrs...)
}

// SetRoute names the face and the route that served the request. Both must
// come from a bounded set (a route template, a tool name, a fixed word),
// never from raw paths or ids: they become metric labels.
func (e *Entry) SetRoute(face, route string) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.face, e.route = face, route
}

// Route returns what SetRoute set ("" when nothing did).
func (e *Entry) Route() (face, route string) {
	if e == nil {
		return "", ""
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.face, e.route
}

// Attrs returns a copy of the attributes added so far.
func (e *Entry) Attrs() []slog.Attr {
	if e == nil {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]slog.Attr(nil), e.attrs...)
}
