package mcp_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/mcp"
	"github.com/giftwell/giftwell/tools"
)

// twins are the MCP face twice on one workspace: with fastCall, and with
// every request handed to the SDK. Each writes its request log to its own
// buffer.
type twins struct {
	env        *apptest.Env
	fast, sdk  http.Handler
	fastLog    *apptest.LogBuffer
	sdkLog     *apptest.LogBuffer
	writeTools map[string]bool // the tools without the readOnly hint
}

func newTwins(t testing.TB) *twins {
	t.Helper()
	env := apptest.New(t)
	tw := &twins{env: env, fastLog: &apptest.LogBuffer{}, sdkLog: &apptest.LogBuffer{}, writeTools: map[string]bool{}}
	for _, t := range tools.All(env.App) {
		tw.writeTools[t.Name] = !t.Hints.ReadOnly
	}
	tw.fast = mcp.NewHandler(mcp.Config{App: env.App, Log: slog.New(slog.NewJSONHandler(tw.fastLog, nil))})
	tw.sdk = mcp.NewSDKOnlyHandler(mcp.Config{App: env.App, Log: slog.New(slog.NewJSONHandler(tw.sdkLog, nil))})
	return tw
}

// answer is what a client sees of a response, less what differs from one
// request to the next (the request id and the rate-limit headers).
type answer struct {
	status                    int
	contentType, cacheControl string
	body                      string
	fast                      bool // fastCall answered it
}

// serve sends one request to h and reports the answer.
func serve(h http.Handler, log *apptest.LogBuffer, header http.Header, body []byte) answer {
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", bytes.NewReader(body))
	r.Header = header.Clone()
	before := len(log.String())
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return answer{
		status:       w.Code,
		contentType:  w.Header().Get("Content-Type"),
		cacheControl: w.Header().Get("Cache-Control"),
		body:         w.Body.String(),
		fast:         strings.Contains(log.String()[before:], `"fast":true`),
	}
}

// compare sends the same request to both twins and requires the same
// answer; it returns whether fastCall answered.
func (tw *twins) compare(t testing.TB, header http.Header, body []byte) bool {
	t.Helper()
	fast := serve(tw.fast, tw.fastLog, header, body)
	slow := serve(tw.sdk, tw.sdkLog, header, body)
	require.False(t, slow.fast, "the SDK-only handler took the fast path")
	slow.fast = fast.fast
	require.Equal(t, slow, fast, "headers %v body %s", header, body)
	return fast.fast
}

// callHeader is the header of a tools/call with the owner's key at version
// (empty: no version header; the new protocol also names method and tool).
func (tw *twins) callHeader(version, tool string) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	h.Set("Authorization", "Bearer "+tw.env.OwnerKey)
	if version != "" {
		h.Set("Mcp-Protocol-Version", version)
	}
	if version >= "2026-07-28" {
		h.Set("Mcp-Method", "tools/call")
		h.Set("Mcp-Name", tool)
	}
	return h
}

// callBody is a tools/call body with id, the tool's name and params' other
// members (arguments, _meta) as raw JSON.
func callBody(id, tool, rest string) []byte {
	if rest != "" {
		rest = "," + rest
	}
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":%q%s}}`, id, tool, rest)
}

// metaFor is the _meta a client of version sends (the new protocol's
// triple; nothing before it).
func metaFor(version string) string {
	if version >= "2026-07-28" {
		return `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + version + `","io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`
	}
	return ""
}

// joinJSON joins the non-empty members.
func joinJSON(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, ",")
}

// TestFastCallAnswersAsTheSDK sends tools/calls of every kind, on every
// protocol version, to the face with and without fastCall: the answers are
// the same to the byte, and fastCall takes exactly the plain calls.
func TestFastCallAnswersAsTheSDK(t *testing.T) {
	t.Parallel()
	tw := newTwins(t)
	calls := []struct {
		name, tool, args string
	}{
		{"a read", "get_balance", `"arguments":{}`},
		{"no arguments", "get_balance", ``},
		{"null arguments", "get_balance", `"arguments":null`},
		{"HTML in the answer", "search_gifts", `"arguments":{"query":"<b>mug</b> & co"}`},
		{"not found", "get_gift", `"arguments":{"productId":"nope<&>"}`},
		{"an unknown argument", "get_campaign", `"arguments":{"id":"cmp_x","bogus":1}`},
		{"arguments not an object", "get_campaign", `"arguments":"x"`},
		{"a write refused", "create_campaign", `"arguments":{"name":""}`},
		{"a signed-in tool", "create_balance_topup", `"arguments":{"amountCents":5000}`},
		{"a NUL in a name", "get_campaign", `"arguments":{"id":"\u0000"}`},
	}
	for _, version := range []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", ""} {
		for _, c := range calls {
			t.Run(version+"/"+c.name, func(t *testing.T) {
				body := callBody("7", c.tool, joinJSON(c.args, metaFor(version)))
				require.True(t, tw.compare(t, tw.callHeader(version, c.tool), body), "fastCall did not answer %s", body)
			})
		}
		t.Run(version+"/a string id", func(t *testing.T) {
			require.True(t, tw.compare(t, tw.callHeader(version, "get_balance"), callBody(`"a-b"`, "get_balance", metaFor(version))))
		})
		t.Run(version+"/a fractional id", func(t *testing.T) {
			require.True(t, tw.compare(t, tw.callHeader(version, "get_balance"), callBody(`1.5`, "get_balance", metaFor(version))))
		})
	}
}

// TestFastCallLeavesTheRestToTheSDK sends tools/calls the SDK refuses or
// treats apart: fastCall declines each, and the answers are the SDK's.
func TestFastCallLeavesTheRestToTheSDK(t *testing.T) {
	t.Parallel()
	tw := newTwins(t)
	const v = "2026-07-28"
	meta := metaFor(v)
	header := func(edit func(http.Header)) http.Header {
		h := tw.callHeader(v, "get_balance")
		if edit != nil {
			edit(h)
		}
		return h
	}
	old := func(edit func(http.Header)) http.Header {
		h := tw.callHeader("2025-11-25", "get_balance")
		if edit != nil {
			edit(h)
		}
		return h
	}
	cases := []struct {
		name   string
		header http.Header
		body   string
	}{
		{"a REST-only tool", header(func(h http.Header) { h.Set("Mcp-Name", "set_auto_approve") }), string(callBody("1", "set_auto_approve", meta))},
		{"an unknown tool", header(func(h http.Header) { h.Set("Mcp-Name", "nope") }), string(callBody("1", "nope", meta))},
		{"no _meta", header(nil), string(callBody("1", "get_balance", ""))},
		{"no capabilities", header(nil), string(callBody("1", "get_balance", `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`))},
		{"capabilities not an object", header(nil), string(callBody("1", "get_balance", `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":"x"}`))},
		{"roots of the wrong type", header(nil), string(callBody("1", "get_balance", `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":"yes"}}}`))},
		{"client info of the wrong type", header(nil), string(callBody("1", "get_balance", `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":5}`))},
		{"null client info", header(nil), string(callBody("1", "get_balance", `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":null}`))},
		{"another version in _meta", header(nil), string(callBody("1", "get_balance", `"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}`))},
		{"no Mcp-Method", header(func(h http.Header) { h.Del("Mcp-Method") }), string(callBody("1", "get_balance", meta))},
		{"another Mcp-Method", header(func(h http.Header) { h.Set("Mcp-Method", "tools/list") }), string(callBody("1", "get_balance", meta))},
		{"no Mcp-Name", header(func(h http.Header) { h.Del("Mcp-Name") }), string(callBody("1", "get_balance", meta))},
		{"another Mcp-Name", header(func(h http.Header) { h.Set("Mcp-Name", "get_gift") }), string(callBody("1", "get_balance", meta))},
		{"Last-Event-ID", header(func(h http.Header) { h.Set("Last-Event-ID", "1") }), string(callBody("1", "get_balance", meta))},
		{"an event stream only", header(func(h http.Header) { h.Set("Accept", "text/event-stream") }), string(callBody("1", "get_balance", meta))},
		{"a retry with input", header(nil), string(callBody("1", "get_balance", joinJSON(meta, `"inputResponses":{}`, `"requestState":"s"`)))},
		{"a notification", header(nil), `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"get_balance",` + meta + `}}`},
		{"null params", header(nil), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}`},
		{"no params", header(nil), `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`},
		{"a name that is not a string", header(nil), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5,` + meta + `}}`},
		{"an old version naming its version in _meta", old(nil), string(callBody("1", "get_balance", `"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}`))},
		{"an old version naming the new one in _meta", old(nil), string(callBody("1", "get_balance", meta))},
		{"no version naming one in _meta", old(func(h http.Header) { h.Del("Mcp-Protocol-Version") }), string(callBody("1", "get_balance", meta))},
		{"a batch of one", old(func(h http.Header) { h.Set("Mcp-Protocol-Version", "2025-03-26") }), "[" + string(callBody("1", "get_balance", "")) + "]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.False(t, tw.compare(t, c.header, []byte(c.body)), "fastCall answered %s", c.body)
		})
	}
}

// FuzzFastCall sends any body with any version and Mcp-* headers to the face
// with and without fastCall: for a call of a read-only tool (or of no tool),
// the answers are the same to the byte; for a write, which the two would
// each perform, both answer with one of the endpoint's statuses.
func FuzzFastCall(f *testing.F) {
	tw := newTwins(f)
	for _, s := range []struct{ version, method, name, body string }{
		{"2026-07-28", "tools/call", "get_balance", string(callBody("1", "get_balance", metaFor("2026-07-28")))},
		{"2026-07-28", "tools/call", "search_gifts", string(callBody(`"x"`, "search_gifts", joinJSON(`"arguments":{"query":"mug"}`, metaFor("2026-07-28"))))},
		{"2025-11-25", "", "", string(callBody("1", "get_gift", `"arguments":{"productId":"<&>"}`))},
		{"2025-06-18", "", "", string(callBody("2", "get_campaign", `"arguments":{"id":"cmp_x","x":1}`))},
		{"2025-03-26", "", "", "[" + string(callBody("1", "get_balance", "")) + "]"},
		{"", "", "", string(callBody("1", "list_campaigns", `"arguments":{}`))},
		{"2026-07-28", "tools/call", "get_balance", string(callBody("1", "get_balance", `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":[]}}`))},
		{"2026-07-28", "tools/call", "create_campaign", string(callBody("1", "create_campaign", joinJSON(`"arguments":{"name":""}`, metaFor("2026-07-28"))))},
	} {
		f.Add(s.version, s.method, s.name, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, version, method, name string, body []byte) {
		header := tw.callHeader("", "")
		for k, v := range map[string]string{"Mcp-Protocol-Version": version, "Mcp-Method": method, "Mcp-Name": name} {
			if v != "" && !strings.ContainsAny(v, "\r\n\x00") {
				header.Set(k, v)
			}
		}
		if tw.writes(body) {
			for _, h := range []http.Handler{tw.fast, tw.sdk} {
				w := httptest.NewRecorder()
				r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", bytes.NewReader(body))
				r.Header = header.Clone()
				h.ServeHTTP(w, r)
				checkResponse(t, w)
			}
			return
		}
		tw.compare(t, header, body)
	})
}

// writes reports whether body may call a tool without the readOnly hint
// (whose two runs would differ: two campaigns, two ids): whether any string
// in it, decoded, names one.
func (tw *twins) writes(body []byte) bool {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return false
	}
	return anyString(v, func(s string) bool { return tw.writeTools[s] })
}

// anyString reports whether f holds for a string anywhere in v.
func anyString(v any, f func(string) bool) bool {
	switch v := v.(type) {
	case string:
		return f(v)
	case []any:
		for _, e := range v {
			if anyString(e, f) {
				return true
			}
		}
	case map[string]any:
		for k, e := range v {
			if f(k) || anyString(e, f) {
				return true
			}
		}
	}
	return false
}
