package mcp

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/tools"
)

func TestServersAreCachedPerProfileAndCredentialKind(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	_, memberKey := env.AddMember(t, core.RoleMember)
	h := NewHandler(Config{App: env.App}).(*handler)
	post := func(path, key string) {
		r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+key)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	}
	count := func() (n int) {
		h.servers.Range(func(any, any) bool { n++; return true })
		return n
	}
	for range 3 {
		post("/mcp", env.OwnerKey)
		post("/mcp", memberKey)
	}
	require.Equal(t, 1, count(), "keys share the full-profile server")
	post("/mcp?profile=gifting", env.OwnerKey)
	require.Equal(t, 2, count())
	_, ok := h.servers.Load(serverKey{profile: tools.ProfileGifting})
	require.True(t, ok)
}

func TestKeyForIgnoresScopesOfKeys(t *testing.T) {
	t.Parallel()
	key := core.Principal{Via: core.ViaKey, Scopes: []core.Scope{core.ScopeRead}}
	require.Equal(t, serverKey{profile: tools.ProfileFull}, keyFor(tools.ProfileFull, key))
	conn := core.Principal{Via: core.ViaConnection, Scopes: []core.Scope{core.ScopeLinks, core.ScopeRead, "made:up"}}
	require.Equal(t, serverKey{profile: tools.ProfileGifting, connection: true, scopes: 0b101}, keyFor(tools.ProfileGifting, conn))
}

func TestDecodeMessages(t *testing.T) {
	t.Parallel()
	msgs, err := decodeMessages([]byte(`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_gift","Name":"other"}},
		{"jsonrpc":"2.0","method":"notifications/initialized"},
		{"jsonrpc":"2.0","id":"r","method":"resources/read","params":{"uri":"giftwell://guide"}}]`))
	require.Nil(t, err)
	require.Len(t, msgs, 3)
	require.Equal(t, "tools/call", msgs[0].method)
	require.Equal(t, "get_gift", msgs[0].name, "names match exactly, as the SDK reads them")
	require.False(t, msgs[1].id.IsValid())
	require.Equal(t, "giftwell://guide", msgs[2].name)

	for body, code := range map[string]int64{
		`{`:                                    jsonrpc.CodeParseError,
		``:                                     jsonrpc.CodeParseError,
		`[]`:                                   jsonrpc.CodeInvalidRequest,
		`7`:                                    jsonrpc.CodeInvalidRequest,
		`{"jsonrpc":"1.0"}`:                    jsonrpc.CodeInvalidRequest,
		`{"jsonrpc":"2.0","id":1,"result":{}}`: jsonrpc.CodeInvalidRequest,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},1]`: jsonrpc.CodeInvalidRequest,
	} {
		_, err := decodeMessages([]byte(body))
		require.NotNil(t, err, body)
		require.Equal(t, code, err.Code, body)
	}
}

// FuzzDecodeMessages checks that decoding any body either fails with a
// JSON-RPC error code or yields at least one message, never panics, and
// frames a message as the SDK's own decoder does.
func FuzzDecodeMessages(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":null,"method":""}`,
		`[[[]]]`, `"x"`, `{`, ``,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x\u0000","arguments":{"a":"\u0000"}}}`,
		"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"tools/\xffcall\",\"params\":{\"name\":\"\xfe\"}}",
		`[{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"giftwell://\u0000"}}]`,
		`{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"x","_meta":5}}`,
		`{"jsonrpc":"2.0","id":[1],"method":"x"}`, `{"jsonrpc":"2.0"}`, `{"jsonrpc":"2.0","method":null}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}`, `{"JSONRPC":"2.0","Method":"x"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		sameAsSDK(t, body)
		msgs, err := decodeMessages(body)
		if err != nil {
			if err.Code != jsonrpc.CodeParseError && err.Code != jsonrpc.CodeInvalidRequest {
				t.Fatalf("code %d", err.Code)
			}
			return
		}
		if len(msgs) == 0 {
			t.Fatal("no messages and no error")
		}
	})
}

// sameAsSDK requires decodeMessage to agree with jsonrpc.DecodeMessage on a
// valid JSON body: the same error text (but for the name of the Go type
// decoded into), or the same id and method (a response is refused).
func sameAsSDK(t *testing.T, body []byte) {
	t.Helper()
	if !json.Valid(body) {
		return
	}
	want, wantErr := jsonrpc.DecodeMessage(body)
	got, err := decodeMessage(body)
	if wantErr != nil {
		require.Error(t, err, "body %q", body)
		// A decode error names the Go type decoded into, which differs.
		require.Equal(t, wantErr.Error(), strings.ReplaceAll(err.Error(), "mcp.wireMessage", "jsonrpc2.wireDecode"), "body %q", body)
		return
	}
	req, ok := want.(*jsonrpc.Request)
	if !ok {
		require.Error(t, err, "a response was taken for a request: %q", body)
		return
	}
	require.NoError(t, err, "body %q", body)
	require.Equal(t, req.ID, got.id, "body %q", body)
	require.Equal(t, req.Method, got.method, "body %q", body)
}

func TestBearerToken(t *testing.T) {
	t.Parallel()
	for header, want := range map[string]string{
		"Bearer gwk_x":     "gwk_x",
		"bearer  gwk_x ":   "gwk_x",
		"Basic dXNlcjpwdw": "",
		"gwk_x":            "",
		"":                 "",
	} {
		require.Equal(t, want, bearerToken(header), header)
	}
}

func TestOriginOf(t *testing.T) {
	t.Parallel()
	require.Equal(t, "https://gifts.example.com", originOf("https://Gifts.Example.com/"))
	require.Equal(t, "http://127.0.0.1:8080", originOf("http://127.0.0.1:8080"))
	require.Equal(t, "", originOf("not a url"))
}
