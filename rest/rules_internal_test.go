package rest

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// TestConnectionsFollowRouteMetadata: which REST routes a sign-in
// connection may use is its tool's metadata (Route.Connections, set on the
// gift-link distribution routes), not the route's path. A connection is
// 401 AUTH_REQUIRED on every other route, whatever its path says; keys are
// not concerned.
func TestConnectionsFollowRouteMetadata(t *testing.T) {
	t.Parallel()
	type in struct {
		ID string `json:"id"`
	}
	echo := func(_ context.Context, _ core.Principal, v in) (in, error) { return v, nil }
	list := []tools.Tool{
		tools.Define("accepts_connections", "A route that accepts sign-in connections. Test only.", tools.ScopeLinks, core.ActReadGiftLinks, echo,
			tools.REST(http.MethodGet, "/somewhere/{id}", http.StatusOK, tools.Connections())),
		tools.Define("refuses_connections", "A route on a distribution-looking path without the metadata. Test only.", tools.ScopeLinks, core.ActReadGiftLinks, echo,
			tools.REST(http.MethodGet, "/campaigns/{id}/distribution", http.StatusOK)),
	}
	ops, err := operations(list)
	require.NoError(t, err)
	require.True(t, ops[0].Connections)
	require.False(t, ops[1].Connections)

	connection := core.Principal{WorkspaceID: "ws_1", UserID: "usr_1", Role: core.RoleOwner, Via: core.ViaConnection, Scopes: core.AllScopes}
	key := core.Principal{WorkspaceID: "ws_1", UserID: "usr_1", Role: core.RoleOwner, Via: core.ViaKey}
	for _, who := range []core.Principal{connection, key} {
		s := &server{
			app:  giftwell.New(nil, core.Config{SiteURL: "https://giftwell.example"}, nil, nil),
			auth: func(context.Context, string) (core.Principal, error) { return who, nil },
		}
		for i := range ops {
			r := httptest.NewRequest(http.MethodGet, ops[i].Path, nil)
			r.Header.Set("Authorization", "Bearer token")
			p, err := s.principal(r, &ops[i])
			if who.Via == core.ViaConnection && !ops[i].Connections {
				require.Equal(t, core.CodeAuthRequired, core.ErrorCode(err), ops[i].ID)
				require.Contains(t, err.Error(), "distribution", ops[i].ID)
				continue
			}
			require.NoError(t, err, "%s as %s", ops[i].ID, who.Via)
			require.Equal(t, who, p)
		}
	}
}

func TestBearerToken(t *testing.T) {
	t.Parallel()
	cases := []struct {
		header, token string
		ok            bool
	}{
		{"Bearer gwk_abc", "gwk_abc", true},
		{"bearer gwk_abc", "gwk_abc", true},
		{"BEARER   gwk_abc  ", "gwk_abc", true},
		{"Bearer", "", false},
		{"Bearer ", "", false},
		{"Basic dXNlcjpwYXNz", "", false},
		{"Bearer a b", "", false},
		{"gwk_abc", "", false},
	}
	for _, c := range cases {
		token, ok := bearerToken(c.header)
		require.Equal(t, c.ok, ok, c.header)
		require.Equal(t, c.token, token, c.header)
	}
}

func TestNormalizeOrigin(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"http://127.0.0.1:8080":        "http://127.0.0.1:8080",
		"HTTP://Giftwell.Example":      "http://giftwell.example",
		"https://giftwell.example:443": "https://giftwell.example",
		"http://giftwell.example:80/":  "http://giftwell.example",
		"https://giftwell.example/app": "https://giftwell.example",
		"http://[::1]:8080":            "http://[::1]:8080",
		"http://[::1]":                 "http://[::1]",
		"null":                         "",
		"":                             "",
		"giftwell.example":             "",
		"http://user@giftwell.example": "",
	}
	for in, want := range cases {
		require.Equal(t, want, normalizeOrigin(in), in)
	}
}

func TestEnvelope(t *testing.T) {
	t.Parallel()
	const site = "https://giftwell.example"
	genericInternal := core.InternalMessage
	// envelope is what the REST face writes for err: its status and body.
	envelope := func(err error, site string) (int, core.Envelope) {
		rec := httptest.NewRecorder()
		(&server{siteURL: site, log: slog.New(slog.DiscardHandler)}).fail(rec, httptest.NewRequest(http.MethodGet, "/x", nil), err)
		var env core.Envelope
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &env))
		return rec.Code, env
	}

	status, env := envelope(errors.New("db password is hunter2"), site)
	require.Equal(t, http.StatusInternalServerError, status)
	require.Equal(t, core.Envelope{Error: genericInternal, Code: "INTERNAL_ERROR", NextAction: core.Stop}, env)

	status, env = envelope(&core.Error{Code: "MADE_UP", Message: "secret"}, site)
	require.Equal(t, http.StatusInternalServerError, status)
	require.Equal(t, "INTERNAL_ERROR", env.Code)
	require.Equal(t, genericInternal, env.Error)

	status, env = envelope(core.Errorf(core.CodeInternal, "detail that must not show"), site)
	require.Equal(t, http.StatusInternalServerError, status)
	require.Equal(t, genericInternal, env.Error)

	status, env = envelope(&core.Error{Code: core.CodePlaybookBusy, Message: "busy", RetryAfterMs: 400}, site)
	require.Equal(t, http.StatusConflict, status)
	require.Equal(t, core.Envelope{Error: "busy", Code: "PLAYBOOK_BUSY", NextAction: core.RetryLater, Retryable: true, RetryAfterMs: 400}, env)

	status, env = envelope(&core.Error{Code: core.CodeInvalidRequestState, Message: "state"}, site)
	require.Equal(t, http.StatusConflict, status)
	require.Equal(t, "INVALID_REQUEST", env.Code, "the wire code")

	_, env = envelope(&core.Error{Code: core.CodePlaybookOff, Message: "off", URL: site + "/campaigns/c?review=1"}, site)
	require.Equal(t, site+"/campaigns/c?review=1", env.URL)
	_, env = envelope(&core.Error{Code: core.CodeAuthRequired, Message: "key"}, site)
	require.Equal(t, site+"/", env.URL, "open_url always carries a url")
	_, env = envelope(core.Invalid("limit", "must be an integer"), site)
	require.Empty(t, env.URL)
}

func TestRetryAfterSeconds(t *testing.T) {
	t.Parallel()
	for ms, want := range map[int64]int64{0: 1, 1: 1, 999: 1, 1000: 1, 1001: 2, 1500: 2, 59_999: 60, 60_000: 60} {
		require.Equal(t, want, retryAfterSeconds(ms), ms)
	}
}

func TestParseObject(t *testing.T) {
	t.Parallel()
	m, err := parseObject(nil)
	require.NoError(t, err)
	require.Nil(t, m)

	m, err = parseObject([]byte(` {"a": 1, "b": [true]} `))
	require.NoError(t, err)
	require.Len(t, m, 2)

	for body, code := range map[string]core.Code{
		`{"a":`:     core.CodeInvalidJSON,
		` `:         core.CodeInvalidJSON,
		`{"a":1}{}`: core.CodeInvalidJSON,
		`{"a":1} x`: core.CodeInvalidJSON,
		`nul`:       core.CodeInvalidJSON,
		`[]`:        core.CodeValidation,
		`"text"`:    core.CodeValidation,
		`null`:      core.CodeValidation,
		`42`:        core.CodeValidation,
	} {
		_, err := parseObject([]byte(body))
		require.Equal(t, code, core.ErrorCode(err), body)
		require.Contains(t, err.Error(), "body", body)
	}
}

func TestIsJSON(t *testing.T) {
	t.Parallel()
	require.True(t, isJSON("application/json"))
	require.True(t, isJSON("Application/JSON; charset=utf-8"))
	require.False(t, isJSON("text/plain"))
	require.False(t, isJSON("application/jsonx"))
	require.False(t, isJSON("application/merge-patch+json"))
	require.False(t, isJSON(""))
	require.False(t, isJSON(";;;"))
}
