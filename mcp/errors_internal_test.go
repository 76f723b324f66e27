package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
)

const errorsSite = "https://giftwell.example"

func errorsHandler(log *slog.Logger) *handler {
	return &handler{app: giftwell.New(nil, core.Config{SiteURL: errorsSite}, nil, nil), log: log}
}

// TestToolErrorsAreCoresEnvelope checks that a failed tool's result is
// core's envelope byte for byte, as structuredContent and as text, and that
// a refusal before any tool runs writes the same bytes with its status.
func TestToolErrorsAreCoresEnvelope(t *testing.T) {
	t.Parallel()
	h := errorsHandler(slog.New(slog.DiscardHandler))
	for _, err := range []error{
		core.Invalid("limit", "must be between 1 and 100"),
		&core.Error{Code: core.CodePlaybookBusy, Message: "busy", RetryAfterMs: 400},
		&core.Error{Code: core.CodeInsufficientBalance, Message: "add funds", URL: errorsSite + "/balance"},
		&core.Error{Code: core.CodePlaybookOff, Message: "the playbook is off"},
		errors.New("secret"),
	} {
		status, env, _ := core.EnvelopeOf(err, errorsSite)
		want, merr := json.Marshal(env)
		require.NoError(t, merr)

		res := h.toolResult(context.Background(), nil, err)
		require.True(t, res.IsError)
		require.Equal(t, string(want), string(res.StructuredContent.(json.RawMessage)), "%v", err)
		require.Equal(t, string(want), res.Content[0].(*sdk.TextContent).Text, "%v", err)

		rec := httptest.NewRecorder()
		h.refuse(rec, httptest.NewRequest(http.MethodPost, "/mcp", nil), err, "")
		require.Equal(t, status, rec.Code)
		require.Equal(t, string(want)+"\n", rec.Body.String())
	}
}

// TestOpenURLCodesCarryAURL is the MCP face's row of the table every face
// runs: each open_url code carries a url, its own or the site's home page,
// in a tool's result and in a refusal.
func TestOpenURLCodesCarryAURL(t *testing.T) {
	t.Parallel()
	h := errorsHandler(slog.New(slog.DiscardHandler))
	n := 0
	for _, code := range core.Codes() {
		if code.Info().NextAction != core.OpenURL {
			continue
		}
		n++
		var env core.Envelope
		res := h.toolResult(context.Background(), nil, &core.Error{Code: code, Message: "a person must act"})
		require.NoError(t, json.Unmarshal(res.StructuredContent.(json.RawMessage), &env))
		require.Equal(t, errorsSite+"/", env.URL, "%s without a url of its own points at the site", code)

		rec := httptest.NewRecorder()
		h.refuse(rec, httptest.NewRequest(http.MethodPost, "/mcp", nil), &core.Error{Code: code, Message: "m", URL: errorsSite + "/login"}, "")
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &env))
		require.Equal(t, errorsSite+"/login", env.URL, code)
	}
	require.GreaterOrEqual(t, n, 8, "the spec's open_url codes")
}

func TestInternalErrorsAreLoggedNotShown(t *testing.T) {
	t.Parallel()
	var logs strings.Builder
	h := errorsHandler(slog.New(slog.NewTextHandler(&logs, nil)))
	res := h.toolResult(context.Background(), nil, errors.New("db password is hunter2"))
	require.NotContains(t, res.Content[0].(*sdk.TextContent).Text, "hunter2")
	require.Contains(t, logs.String(), "hunter2")

	logs.Reset()
	h.toolResult(context.Background(), nil, core.Errorf(core.CodeNotFound, "no such campaign"))
	require.Empty(t, logs.String(), "an expected error is not logged as internal")
}
