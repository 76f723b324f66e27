package tools

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

func TestCheckJSONNamesEachHostileField(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		`{"a":"x","b":"y"}`:                           "",
		`{"a":"caf\u00e9 \ud83c\udf81 \ufffd"}`:       "",
		`{"a":"\\u0000 is text"}`:                     "",
		`{"description":"x\u0000y"}`:                  "description: must not contain a NUL character (U+0000)",
		"{\"name\":\"x\xffy\"}":                       "name: must be UTF-8 text",
		`{"recipients":[{},{},{},{"name":"\u0000"}]}`: "recipients[3].name: must not contain a NUL character (U+0000)",
		`{"a":{"b\u0000":1,"c":[1,"\u0000"]}}`:        "a: has a field name with a NUL character or bytes that are not UTF-8; a.c[1]: must not contain a NUL character (U+0000)",
		"[{\"k\":\"\xc3\x28\"}]":                      "[0].k: must be UTF-8 text",
		"{\"a\xff\":{\"b\":\"\\u0000\"}}":             "arguments: has a field name with a NUL character or bytes that are not UTF-8; a\ufffd.b: must not contain a NUL character (U+0000)",
		`{"a":"\u0000"`:                               "", // not JSON: the decoder's to refuse
	} {
		err := CheckJSON([]byte(raw))
		if want == "" {
			require.NoError(t, err, raw)
			continue
		}
		require.Error(t, err, raw)
		e := core.AsError(err)
		require.Equal(t, core.CodeValidation, e.Code)
		require.Equal(t, want, e.Message, raw)
	}
}

func TestCheckTextAndValues(t *testing.T) {
	t.Parallel()
	require.NoError(t, CheckText(map[string]any{"a": "x", "b": []any{"y", 1, nil}}))
	e := core.AsError(CheckText(map[string]any{"id": "\xff", "q": []any{"ok", "\x00"}}))
	require.Equal(t, "id: must be UTF-8 text; q[1]: must not contain a NUL character (U+0000)", e.Message)
	require.Equal(t, []string{"id", "q[1]"}, e.Fields)

	require.NoError(t, CheckValues(url.Values{"a": {"x", "y"}}))
	e = core.AsError(CheckValues(url.Values{"b": {"ok", "\x00"}, "a": {"\xfe"}, "\x00": {"x"}}))
	require.Equal(t, []string{"field name", "a", "b"}, e.Fields, e.Message)
	require.Equal(t, "", HostileText("plain text, café"))
	require.NotEmpty(t, HostileText("\x00"))
	require.NotEmpty(t, HostileText("\xed\xa0\x80"), "an encoded surrogate is not UTF-8")
}
