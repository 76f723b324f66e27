package mcp_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

// TestHostileTextInToolArguments sends NUL characters (as the SDK client
// does, \u0000) and bytes that are not UTF-8 (raw, in a hand-written
// body) in tool arguments: each call is a VALIDATION_ERROR result naming
// the field, never an internal error, and nothing is written.
func TestHostileTextInToolArguments(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := agent{t: t, cs: b.connect(t, "/mcp", b.env.OwnerKey, "2026-07-28")}
	pb := a.ok("create_campaign", map[string]any{"name": "Thanks", "mode": "always_on", "productId": "gourmet-snack-crate",
		"senderName": "Sam", "senderCompany": "Acme"})
	id := pb["id"].(string)

	people := []any{}
	for i := range 4 {
		people = append(people, map[string]any{"email": fmt.Sprintf("p%d@example.com", i), "name": "P"})
	}
	people[3].(map[string]any)["name"] = "Ida\x00"
	for _, tc := range []struct {
		tool  string
		args  map[string]any
		field string
	}{
		{"create_campaign", map[string]any{"name": "x", "mode": "always_on", "productId": "gourmet-snack-crate", "senderName": "S", "senderCompany": "A", "description": "x\x00y"}, "description"},
		{"create_campaign", map[string]any{"name": "x", "mode": "always_on", "productId": "gourmet-snack-crate", "senderName": "S", "senderCompany": "A", "customization": map[string]any{"displayText": "a\x00"}}, "customization.displayText"},
		{"update_campaign", map[string]any{"id": id, "message": "Hi\x00"}, "message"},
		{"add_recipients", map[string]any{"id": id, "recipients": people}, "recipients[3].name"},
		{"get_campaign", map[string]any{"id": "cmp_\x00"}, "id"},
		{"list_sends", map[string]any{"campaignId": "\x00"}, "campaignId"},
		{"search_gifts", map[string]any{"query": "mug\x00"}, "query"},
	} {
		out := a.fails(tc.tool, tc.args, core.CodeValidation)
		require.True(t, strings.HasPrefix(out["error"].(string), tc.field+": must not contain a NUL"), "%s: %v", tc.tool, out)
	}

	// Raw bytes that are not UTF-8, which a JSON encoder would never send.
	res := b.do(t, request{token: b.env.OwnerKey, header: mcpHeaders("tools/call", "create_campaign"), body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_campaign","arguments":` +
		"{\"name\":\"Thanks \xff\",\"mode\":\"always_on\",\"productId\":\"gourmet-snack-crate\",\"senderName\":\"S\",\"senderCompany\":\"A\"}," + newMeta + `}}`})
	require.Equal(t, 200, res.status, "%s", res.body)
	var rpc struct {
		Result struct {
			IsError           bool           `json:"isError"`
			StructuredContent map[string]any `json:"structuredContent"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal(res.body, &rpc), "%s", res.body)
	require.True(t, rpc.Result.IsError, "%s", res.body)
	requireEnvelope(t, rpc.Result.StructuredContent, core.CodeValidation)
	require.Equal(t, "name: must be UTF-8 text", rpc.Result.StructuredContent["error"])

	// Nothing was written: the one playbook, with nobody in it.
	list, isError := a.call("list_campaigns", map[string]any{})
	require.False(t, isError)
	require.Len(t, list["data"], 1, "%v", list)
	got := a.ok("get_campaign", map[string]any{"id": id})
	require.EqualValues(t, 0, got["recipientCount"])
	require.Empty(t, got["message"])
	require.NotContains(t, b.log.String(), `"level":"ERROR"`)
}
