package reqlog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/reqlog"
)

// lines decodes JSON log lines.
func lines(t *testing.T, buf *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for l := range strings.Lines(buf.String()) {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &m))
		out = append(out, m)
	}
	return out
}

func TestHandlerAddsTheRequestID(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(reqlog.NewHandler(slog.NewJSONHandler(&buf, nil)))
	ctx := context.WithValue(context.Background(), middleware.RequestIDKey, "req-7")

	log.InfoContext(ctx, "with a request")
	log.InfoContext(context.Background(), "without one")
	log.InfoContext(ctx, "already has it", "request_id", "req-7")
	log.With("component", "core").WarnContext(ctx, "through With")
	log.With("request_id", "req-7").InfoContext(ctx, "With carries it")
	log.WithGroup("g").InfoContext(ctx, "in a group", "k", 1)

	got := lines(t, &buf)
	require.Len(t, got, 6)
	require.Equal(t, "req-7", got[0]["request_id"])
	require.NotContains(t, got[1], "request_id")
	require.Equal(t, 1, strings.Count(strings.Split(buf.String(), "\n")[2], `"request_id"`), "never twice")
	require.Equal(t, "req-7", got[3]["request_id"])
	require.Equal(t, "core", got[3]["component"])
	require.Equal(t, 1, strings.Count(strings.Split(buf.String(), "\n")[4], `"request_id"`), "never twice")
	require.Equal(t, "req-7", got[5]["g"].(map[string]any)["request_id"])
}

func TestEntryCollectsWhatFacesAdd(t *testing.T) {
	t.Parallel()
	require.Nil(t, reqlog.From(context.Background()))
	var none *reqlog.Entry
	none.Add(slog.String("ignored", "x")) // a nil Entry ignores calls
	none.SetRoute("mcp", "x")
	face, route := none.Route()
	require.Empty(t, face+route)

	ctx, e := reqlog.Start(context.Background())
	require.Same(t, e, reqlog.From(ctx))
	reqlog.From(ctx).Add(slog.String("tool", "create_campaign"))
	reqlog.From(ctx).SetRoute("mcp", "/mcp tools/call create_campaign")
	face, route = e.Route()
	require.Equal(t, "mcp", face)
	require.Equal(t, "/mcp tools/call create_campaign", route)
	require.Equal(t, []slog.Attr{slog.String("tool", "create_campaign")}, e.Attrs())
}
