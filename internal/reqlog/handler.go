package reqlog

import (
	"context"
	"log/slog"

	"github.com/go-chi/chi/v5/middleware"
)

// IDKey is the attribute key of the request id.
const IDKey = "request_id"

// Handler wraps a slog.Handler so that every record logged with a request's
// context (one that carries chi's request id, set by middleware.RequestID)
// has the request id as IDKey. A record that already has IDKey at its top
// level is left as it is.
type Handler struct {
	next slog.Handler
	// hasID is true when WithAttrs already added IDKey.
	hasID bool
}

var _ slog.Handler = (*Handler)(nil)

// NewHandler returns next wrapped.
func NewHandler(next slog.Handler) *Handler { return &Handler{next: next} }

// Enabled reports what the wrapped handler reports.
func (h *Handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

// Handle adds the request id of ctx, if any, and passes r on.
func (h *Handler) Handle(ctx context.Context, r slog.Record) error {
	if id := middleware.GetReqID(ctx); id != "" && !h.hasID && !hasAttr(r, IDKey) {
		r = r.Clone()
		r.AddAttrs(slog.String(IDKey, id))
	}
	return h.next.Handle(ctx, r)
}

// WithAttrs returns a Handler over next.WithAttrs(attrs).
func (h *Handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	has := h.hasID
	for _, a := range attrs {
		has = has || a.Key == IDKey
	}
	return &Handler{next: h.next.WithAttrs(attrs), hasID: has}
}

// WithGroup returns a Handler over next.WithGroup(name). Records of a
// group carry the request id inside the group.
func (h *Handler) WithGroup(name string) slog.Handler {
	return &Handler{next: h.next.WithGroup(name), hasID: h.hasID}
}

func hasAttr(r slog.Record, key string) bool {
	found := false
	r.Attrs(func(a slog.Attr) bool {
		found = a.Key == key
		return !found
	})
	return found
}
