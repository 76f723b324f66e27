package mcp_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/mcp"
)

// FuzzHandler sends arbitrary methods, paths, MCP headers and bodies to the
// handler with a valid key. Whatever arrives, it must not panic, and every
// response must be a JSON-RPC response, a JSON error envelope whose status
// is its code's, or an empty 202.
func FuzzHandler(f *testing.F) {
	env := apptest.New(f)
	h := mcp.NewHandler(mcp.Config{App: env.App})
	seeds := []struct {
		method, path, version, mcpMethod, mcpName, contentType, origin string
		auth                                                           bool
		body                                                           string
	}{
		{"POST", "/mcp", "2026-07-28", "tools/list", "", "application/json", "", true, toolsList},
		{"POST", "/mcp", "2026-07-28", "tools/call", "search_gifts", "application/json", "", true,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_gifts","arguments":{"query":"mug"},` + newMeta + `}}`},
		{"POST", "/mcp", "2026-07-28", "tools/call", "get_gift", "application/json", "", true,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_gifts","arguments":{},` + newMeta + `}}`},
		{"POST", "/mcp", "2025-06-18", "", "", "application/json", "", true,
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`},
		{"POST", "/mcp", "2025-03-26", "", "", "application/json", "", true,
			`[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`},
		{"POST", "/mcp", "2025-06-18", "", "", "application/json", "", true,
			`[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`},
		{"POST", "/mcp", "2025-11-25", "", "", "application/json", "", true, `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{"POST", "/mcp", "2026-07-28", "subscriptions/listen", "", "application/json", "", true,
			`{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + newMeta + `}}`},
		{"POST", "/mcp", "2026-07-28", "resources/read", "giftwell://guide", "application/json", "", true,
			`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"giftwell://guide",` + newMeta + `}}`},
		{"POST", "/mcp", "2026-07-28", "prompts/get", "start_playbook", "application/json", "", true,
			`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"start_playbook","arguments":{"goal":7},` + newMeta + `}}`},
		{"POST", "/mcp", "2026-07-28", "bogus/method", "", "application/json", "", true,
			`{"jsonrpc":"2.0","id":1,"method":"bogus/method","params":{` + newMeta + `}}`},
		{"POST", "/mcp", "2099-01-01", "tools/list", "", "application/json", "", true, toolsList},
		{"POST", "/mcp", "", "", "", "application/json", "", true, `{"jsonrpc":"1.0","id":{},"method":7}`},
		{"POST", "/mcp", "", "", "", "application/json", "", true, `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{"POST", "/mcp", "", "", "", "application/json", "", true, `[]`},
		{"POST", "/mcp", "", "", "", "application/json", "", true, `{`},
		{"POST", "/mcp", "", "", "", "application/json", "", true, ``},
		{"POST", "/mcp", "", "", "", "text/plain", "", true, toolsList},
		{"POST", "/mcp?profile=nope", "", "", "", "application/json", "", true, toolsList},
		{"POST", "/chatgpt/mcp", "", "", "", "application/json", "", true, toolsList},
		{"POST", "/mcp", "", "", "", "application/json", "https://evil.example", true, toolsList},
		{"POST", "/mcp", "", "", "", "application/json", "", false, toolsList},
		{"GET", "/mcp", "", "", "", "", "", true, ""},
		{"DELETE", "/mcp", "2026-07-28", "", "", "", "", true, ""},
		{"POST", "/elsewhere", "", "", "", "application/json", "", true, toolsList},
		// Hostile text in tool arguments: a NUL (escaped) or raw bytes that
		// are not UTF-8 is a VALIDATION_ERROR result, never an internal one.
		{"POST", "/mcp", "2026-07-28", "tools/call", "create_campaign", "application/json", "", true,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_campaign","arguments":{"name":"x","mode":"always_on","productId":"gourmet-snack-crate","senderName":"S","senderCompany":"A","description":"x\u0000y"},` + newMeta + `}}`},
		{"POST", "/mcp", "2026-07-28", "tools/call", "create_campaign", "application/json", "", true,
			"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"create_campaign\",\"arguments\":{\"name\":\"x\xff\",\"mode\":\"always_on\",\"productId\":\"gourmet-snack-crate\",\"senderName\":\"S\",\"senderCompany\":\"A\"}," + newMeta + "}}"},
		{"POST", "/mcp", "2026-07-28", "tools/call", "get_campaign", "application/json", "", true,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_campaign","arguments":{"id":"\u0000"},` + newMeta + `}}`},
		{"POST", "/mcp", "2026-07-28", "tools/call", "add_recipients", "application/json", "", true,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add_recipients","arguments":{"id":"cmp_x","recipients":[{"email":"a@example.com","name":"\u0000"}]},` + newMeta + `}}`},
		{"POST", "/mcp", "2026-07-28", "tools/call", "list_sends", "application/json", "", true,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_sends","arguments":{"campaignId\u0000":"x"},` + newMeta + `}}`},
		{"POST", "/mcp", "2026-07-28", "tools/call", "get\u0000", "application/json", "", true,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get\u0000","arguments":{},` + newMeta + `}}`},
		{"POST", "/mcp", "2025-03-26", "", "", "application/json", "", true,
			`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_gifts","arguments":{"query":"\u0000"}}}]`},
	}
	for _, s := range seeds {
		f.Add(s.method, s.path, s.version, s.mcpMethod, s.mcpName, s.contentType, s.origin, s.auth, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, method, path, version, mcpMethod, mcpName, contentType, origin string, auth bool, body []byte) {
		r, err := http.NewRequest(method, "http://127.0.0.1"+path, bytes.NewReader(body))
		if err != nil {
			return // not a request a client could send
		}
		set := func(k, v string) {
			if v != "" {
				r.Header[k] = []string{v}
			}
		}
		set("Mcp-Protocol-Version", version)
		set("Mcp-Method", mcpMethod)
		set("Mcp-Name", mcpName)
		set("Content-Type", contentType)
		set("Origin", origin)
		if auth {
			r.Header.Set("Authorization", "Bearer "+env.OwnerKey)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		checkResponse(t, w)
	})
}

// knownStatuses are the statuses the endpoint answers with.
var knownStatuses = map[int]bool{200: true, 202: true, 400: true, 401: true, 403: true, 404: true, 405: true, 413: true, 415: true}

func checkResponse(t *testing.T, w *httptest.ResponseRecorder) {
	t.Helper()
	if !knownStatuses[w.Code] {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if w.Code == http.StatusAccepted {
		if w.Body.Len() != 0 {
			t.Fatalf("202 with a body: %s", w.Body)
		}
		return
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("status %d with Content-Type %q: %s", w.Code, ct, w.Body)
	}
	var body any
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("status %d, body is not JSON: %s", w.Code, w.Body)
	}
	checkJSON(t, w.Code, body)
}

func checkJSON(t *testing.T, status int, body any) {
	t.Helper()
	switch v := body.(type) {
	case []any: // a batch answer
		if status != http.StatusOK || len(v) == 0 {
			t.Fatalf("status %d with batch %v", status, v)
		}
		for _, item := range v {
			checkJSON(t, status, item)
		}
	case map[string]any:
		if _, ok := v["jsonrpc"]; ok {
			if v["jsonrpc"] != "2.0" {
				t.Fatalf("bad jsonrpc version: %v", v)
			}
			result, hasResult := v["result"]
			e, hasError := v["error"].(map[string]any)
			if hasResult == hasError {
				t.Fatalf("want exactly one of result and error: %v", v)
			}
			if r, ok := result.(map[string]any); ok {
				if sc, ok := r["structuredContent"].(map[string]any); ok && sc["code"] == string(core.CodeInternal) {
					t.Fatalf("a tool call failed with an internal error: %v", v)
				}
			}
			if hasError {
				if _, ok := e["code"].(float64); !ok {
					t.Fatalf("error without a numeric code: %v", v)
				}
			}
			return
		}
		code, _ := v["code"].(string)
		if code == "" || core.Code(code).Info().Status != status {
			t.Fatalf("status %d with envelope %v", status, v)
		}
		if _, ok := v["error"].(string); !ok {
			t.Fatalf("envelope without error text: %v", v)
		}
		if _, ok := v["retryable"].(bool); !ok {
			t.Fatalf("envelope without retryable: %v", v)
		}
	default:
		t.Fatalf("status %d with body %v", status, body)
	}
}
