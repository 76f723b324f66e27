package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
)

// logLines decodes the JSON lines of logs.
func logLines(t *testing.T, logs string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for l := range strings.Lines(logs) {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &m), l)
		out = append(out, m)
	}
	return out
}

// withID returns the lines whose request_id is id.
func withID(lines []map[string]any, id string) []map[string]any {
	var out []map[string]any
	for _, l := range lines {
		if l["request_id"] == id {
			out = append(out, l)
		}
	}
	return out
}

func TestOneAccessLinePerRequestWithTheMCPDetails(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	logs := &apptest.LogBuffer{}
	srv := httptest.NewServer(routes(env.App, newLoggerTo(logs)))
	t.Cleanup(srv.Close)

	res, body := callTool(t, srv.URL, env.OwnerKey)
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	id := res.Header.Get("X-Request-Id")
	require.NotEmpty(t, id)

	lines := withID(logLines(t, logs.String()), id)
	require.Len(t, lines, 1, "exactly one line for the request:\n%s", logs.String())
	line := lines[0]
	require.Equal(t, "request", line["msg"])
	require.Equal(t, "POST", line["method"])
	require.Equal(t, "/mcp", line["path"])
	require.EqualValues(t, 200, line["status"])
	require.Equal(t, "mcp", line["face"])
	require.Equal(t, "/mcp", line["mount"])
	require.Equal(t, "full", line["profile"])
	require.Equal(t, "tools/call", line["rpc"])
	require.Equal(t, "get_workflow_guide", line["name"])
	require.Equal(t, env.WorkspaceID, line["workspace"])
	require.Equal(t, "key", line["via"])
	require.NotContains(t, logs.String(), "mcp request", "the MCP face writes no line of its own")
	require.NotContains(t, logs.String(), env.OwnerKey)

	// A refused MCP request is one line too, with its outcome code.
	res, _ = send(t, http.MethodPost, srv.URL+"/mcp", "", mcpToolCall, nil)
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
	lines = withID(logLines(t, logs.String()), res.Header.Get("X-Request-Id"))
	require.Len(t, lines, 1)
	require.Equal(t, "AUTH_REQUIRED", lines[0]["code"])
}

func TestLogsDuringARequestCarryItsID(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	logs := &apptest.LogBuffer{}
	log := newLoggerTo(logs)
	srv := httptest.NewServer(routes(env.App, log))
	t.Cleanup(srv.Close)

	// A handler's log line, written while the request is served.
	env.App.DB.Close()
	res, _ := send(t, http.MethodGet, srv.URL+"/readyz", "", "", nil)
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
	lines := withID(logLines(t, logs.String()), res.Header.Get("X-Request-Id"))
	require.Len(t, lines, 2, logs.String())
	require.Equal(t, "not ready", lines[0]["msg"])
	require.Equal(t, "request", lines[1]["msg"])
}

// failingSender refuses every email.
type failingSender struct{}

func (failingSender) Send(context.Context, identity.Email) error {
	return errors.New("smtp: 451 try later")
}

var _ identity.EmailSender = failingSender{}

func TestCoreLogsCarryTheRequestID(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	logs := &apptest.LogBuffer{}
	env.App.Log = newLoggerTo(logs) // as serve builds it: core logs through the same logger
	ctx := context.Background()
	token, _ := env.SignIn(t, env.OwnerEmail)
	p, err := env.App.Identity.AuthenticateSession(ctx, token)
	require.NoError(t, err)
	_, err = env.App.Identity.InviteTeamMember(ctx, p, identity.InviteParams{Email: "new.hire@example.com", Role: core.RoleMember})
	require.NoError(t, err)

	// core logs a failed delivery with the ctx it is given: a request's
	// context carries the request id.
	reqCtx := context.WithValue(ctx, middleware.RequestIDKey, "host/req-000042")
	rows := apptest.JobsIn(t, env.App, identity.DeliverEmailArgs{}.Kind())
	require.Len(t, rows, 1, "the invitation queued one email")
	var args identity.DeliverEmailArgs
	require.NoError(t, json.Unmarshal(rows[0].EncodedArgs, &args))
	rows[0].Attempt, rows[0].MaxAttempts = 1, identity.EmailMaxAttempts
	worker := &identity.DeliverEmailWorker{Identity: env.App.Identity, Sender: failingSender{}}
	require.Error(t, worker.Work(reqCtx, &river.Job[identity.DeliverEmailArgs]{JobRow: rows[0], Args: args}), "the failed send is the job's error, for River to retry")
	lines := withID(logLines(t, logs.String()), "host/req-000042")
	require.Len(t, lines, 1, logs.String())
	require.Equal(t, "email delivery failed", lines[0]["msg"])
}
