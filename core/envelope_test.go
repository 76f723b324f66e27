package core_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

const envelopeSite = "https://giftwell.example"

// TestEnvelopeOfEveryCode builds the envelope of every code of the table,
// with and without a url of its own: status, nextAction and retryable come
// from the table, the code is written as its wire code, and every open_url
// code carries a url (the site's home page when the error has none).
func TestEnvelopeOfEveryCode(t *testing.T) {
	t.Parallel()
	for _, code := range core.Codes() {
		info := code.Info()
		status, env, internal := core.EnvelopeOf(&core.Error{Code: code, Message: "what happened", RetryAfterMs: 1200}, envelopeSite)
		require.Equal(t, info.Status, status, code)
		require.Equal(t, code.Wire(), env.Code, code)
		require.Equal(t, info.NextAction, env.NextAction, code)
		require.Equal(t, info.Retryable, env.Retryable, code)
		require.Equal(t, code == core.CodeInternal, internal, code)
		if code == core.CodeInternal {
			require.Equal(t, core.InternalMessage, env.Error, "an internal error's own text never shows")
			require.Empty(t, env.URL)
			continue
		}
		require.Equal(t, "what happened", env.Error, code)
		require.EqualValues(t, 1200, env.RetryAfterMs, code)
		if info.NextAction == core.OpenURL {
			require.Equal(t, envelopeSite+"/", env.URL, "%s: open_url always carries a url", code)
		} else {
			require.Empty(t, env.URL, code)
		}

		_, env, _ = core.EnvelopeOf(&core.Error{Code: code, Message: "m", URL: envelopeSite + "/balance"}, envelopeSite)
		require.Equal(t, envelopeSite+"/balance", env.URL, "%s keeps its own url", code)
	}
}

func TestEnvelopeOfUnexpectedErrors(t *testing.T) {
	t.Parallel()
	generic := core.Envelope{Error: core.InternalMessage, Code: "INTERNAL_ERROR", NextAction: core.Stop}
	for name, err := range map[string]error{
		"plain":         errors.New("db password is hunter2"),
		"wrapped":       fmt.Errorf("query: %w", errors.New("secret")),
		"unknown code":  &core.Error{Code: "MADE_UP", Message: "secret", URL: "https://evil.example"},
		"internal":      core.Errorf(core.CodeInternal, "detail that must not show"),
		"with a cause":  core.Internal(errors.New("secret cause")),
		"nil, a misuse": nil,
	} {
		status, env, internal := core.EnvelopeOf(err, envelopeSite)
		require.Equal(t, http.StatusInternalServerError, status, name)
		require.Equal(t, generic, env, name)
		require.True(t, internal, name)
	}

	// A *core.Error wrapped by another error is still itself.
	status, env, internal := core.EnvelopeOf(fmt.Errorf("adding: %w", core.Errorf(core.CodeNotFound, "no campaign cmp_1")), envelopeSite)
	require.Equal(t, http.StatusNotFound, status)
	require.Equal(t, "no campaign cmp_1", env.Error)
	require.False(t, internal)

	// The two codes that share a wire code with another row.
	status, env, _ = core.EnvelopeOf(core.Errorf(core.CodeInvalidRequestState, "state"), envelopeSite)
	require.Equal(t, http.StatusConflict, status)
	require.Equal(t, "INVALID_REQUEST", env.Code)
	require.Equal(t, core.RereadAndRetry, env.NextAction)
	status, env, _ = core.EnvelopeOf(core.Errorf(core.CodeUnavailableWrite, "down"), envelopeSite)
	require.Equal(t, http.StatusServiceUnavailable, status)
	require.Equal(t, "SERVICE_UNAVAILABLE", env.Code)
	require.Equal(t, "down", env.Error, "a 503 is not an internal error: its text shows")
}

// TestEnvelopeWire checks the envelope's JSON: exactly the spec's members,
// url and retryAfterMs only when set, and never the field it names.
func TestEnvelopeWire(t *testing.T) {
	t.Parallel()
	_, env, _ := core.EnvelopeOf(core.Invalid("recipients[2].email", "is not an email address"), envelopeSite)
	require.Equal(t, "recipients[2].email", env.Field)
	b, err := json.Marshal(env)
	require.NoError(t, err)
	require.JSONEq(t, `{"error":"recipients[2].email: is not an email address","code":"VALIDATION_ERROR","nextAction":"ask_user","retryable":false}`, string(b))

	_, env, _ = core.EnvelopeOf(&core.Error{Code: core.CodePlaybookBusy, Message: "busy", RetryAfterMs: 400}, envelopeSite)
	require.Empty(t, env.Field)
	b, err = json.Marshal(env)
	require.NoError(t, err)
	require.Equal(t, `{"error":"busy","code":"PLAYBOOK_BUSY","nextAction":"retry_later","retryable":true,"retryAfterMs":400}`, string(b))

	_, env, _ = core.EnvelopeOf(&core.Error{Code: core.CodeHumanApprovalRequired, Message: "a person must"}, envelopeSite)
	b, err = json.Marshal(env)
	require.NoError(t, err)
	require.Equal(t, `{"error":"a person must","code":"HUMAN_APPROVAL_REQUIRED","nextAction":"open_url","url":"https://giftwell.example/","retryable":false}`, string(b))
}

func TestNextActionsAreTheTables(t *testing.T) {
	t.Parallel()
	used := map[core.NextAction]bool{}
	for _, c := range core.Codes() {
		used[c.Info().NextAction] = true
	}
	require.Len(t, used, len(core.NextActions()))
	for _, a := range core.NextActions() {
		require.True(t, used[a], a)
	}
}
