package rest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// sampleInput has a property of every kind the coercion knows.
type sampleInput struct {
	ID     string         `json:"id"`
	Query  string         `json:"query,omitempty"`
	Limit  int            `json:"limit,omitempty"`
	Ratio  float64        `json:"ratio,omitempty"`
	Flag   bool           `json:"flag,omitempty"`
	Max    *int64         `json:"max,omitempty"`
	IDs    []string       `json:"ids,omitempty"`
	Counts []int          `json:"counts,omitempty"`
	Filter map[string]int `json:"filter,omitempty"`
	Any    any            `json:"any,omitempty"`
}

func sampleBinding(t testing.TB, method string) binding {
	t.Helper()
	s, err := jsonschema.For[sampleInput](nil)
	require.NoError(t, err)
	b, err := newBinding(method, "/things/{id}", s, false, false)
	require.NoError(t, err)
	return b
}

func TestNewBinding(t *testing.T) {
	t.Parallel()
	get := sampleBinding(t, http.MethodGet)
	require.Equal(t, []string{"id"}, get.path)
	require.True(t, get.query)
	require.False(t, get.body)

	post := sampleBinding(t, http.MethodPost)
	require.False(t, post.query)
	require.True(t, post.body)

	onlyPath, err := jsonschema.For[struct {
		ID string `json:"id"`
	}](nil)
	require.NoError(t, err)
	b, err := newBinding(http.MethodPost, "/things/{id}/ping", onlyPath, false, false)
	require.NoError(t, err)
	require.False(t, b.body, "a POST with only path fields reads no body")

	_, err = newBinding(http.MethodGet, "/things/{thingId}", onlyPath, false, false)
	require.ErrorContains(t, err, "thingId")
}

func TestMergeCoercesQuery(t *testing.T) {
	t.Parallel()
	b := sampleBinding(t, http.MethodGet)
	q := url.Values{
		"query": {"a, b"}, "limit": {"+7"}, "ratio": {"1e2"}, "flag": {"False"}, "max": {"-3"},
		"ids": {"x, y", "z"}, "counts": {"1,,2"}, "filter": {`{"k":1}`}, "any": {"text"},
	}
	raw, err := b.merge(map[string]string{"id": "t 1"}, q.Encode(), nil)
	require.NoError(t, err)
	require.JSONEq(t, `{"id":"t 1","query":"a, b","limit":7,"ratio":100,"flag":false,"max":-3,
		"ids":["x","y","z"],"counts":[1,2],"filter":{"k":1},"any":"text"}`, string(raw))
}

func TestMergeProblemsNameEveryParameter(t *testing.T) {
	t.Parallel()
	b := sampleBinding(t, http.MethodGet)
	cases := map[string][]string{
		"limit=abc":                  {"limit: must be an integer"},
		"limit=1.5":                  {"limit: must be an integer"},
		"limit=99999999999999999999": {"limit: must be an integer"},
		"ratio=NaN":                  {"ratio: must be a number"},
		"ratio=1e999":                {"ratio: must be a number"},
		"flag=1":                     {"flag: must be true or false"},
		"max=null":                   {"max: must be an integer"},
		"counts=1,two":               {"counts: must be a comma-separated list; item 2 must be an integer"},
		"filter=[1]":                 {"filter: must be a JSON object"},
		"limit=1&limit=2":            {"limit: must be given once"},
		"colour=red&b=1":             {"b: is not a known query parameter", "colour: is not a known query parameter"},
		"id=2":                       {"id: is a path parameter"},
		"a=%zz":                      {"query: is not a valid query string"},
	}
	for query, want := range cases {
		_, err := b.merge(map[string]string{"id": "t1"}, query, nil)
		e := core.AsError(err)
		require.Equal(t, core.CodeValidation, e.Code, query)
		for _, w := range want {
			require.Contains(t, e.Message, w, query)
		}
	}
}

func TestMergeBody(t *testing.T) {
	t.Parallel()
	b := sampleBinding(t, http.MethodPost)
	body := map[string]any{"query": "gifts", "limit": json.Number("5"), "nested": map[string]any{"a": []any{1.5}}}
	raw, err := b.merge(map[string]string{"id": "t1"}, "", body)
	require.NoError(t, err)
	require.JSONEq(t, `{"id":"t1","query":"gifts","limit":5,"nested":{"a":[1.5]}}`, string(raw),
		"unknown body fields pass through for the tool's validator to name")

	_, err = b.merge(map[string]string{"id": "t1"}, "", map[string]any{"id": "t2"})
	require.ErrorContains(t, err, "id: is a path parameter")

	_, err = b.merge(map[string]string{"id": "t1"}, "limit=5", nil)
	require.ErrorContains(t, err, "limit: is not a query parameter; send it in the JSON body")
}

// FuzzMerge drives query coercion and the body merge with arbitrary input:
// the result is a JSON object of known query parameters and body fields, or
// a VALIDATION_ERROR / INVALID_JSON whose message names a field.
func FuzzMerge(f *testing.F) {
	f.Add("t1", "limit=5&ids=a,b&flag=true", []byte(`{"note":"x"}`), false)
	f.Add("t1", "counts=1,2,x&ratio=0.5", []byte(``), false)
	f.Add("a%2Fb", "filter=%7B%22k%22%3A1%7D&max=-1", []byte(`[1]`), true)
	f.Add("", "limit=1&limit=2&colour=red", []byte(`{"id":"x"}`), true)
	f.Add("t1", "%zz=1", []byte(`{"a":`), true)
	f.Add("t1", "ids=&query=", []byte(`null`), false)
	f.Add("t1", "flag=TRUE&any=%00", []byte("{\"\\u0000\":1e999}"), true)
	// Hostile text: a NUL or bytes that are not UTF-8 anywhere.
	f.Add("\x00", "limit=1", []byte(``), false)
	f.Add("t\xff", "", []byte(`{"note":"x"}`), true)
	f.Add("t1", "ids=a%00,b&flag=true", []byte(``), false)
	f.Add("t1", "query=%FF%FE", []byte(``), false)
	f.Add("t1", "%FF=1", []byte(``), false)
	f.Add("t1", "", []byte("{\"note\":\"x\xffy\"}"), true)
	f.Add("t1", "", []byte(`{"note":"x\u0000y","list":[{"k":"\u0000"}]}`), true)
	f.Add("t1", "", []byte(`{"obj":{"a\u0000":1}}`), true)
	get, post := sampleBinding(f, http.MethodGet), sampleBinding(f, http.MethodPost)
	f.Fuzz(func(t *testing.T, id, query string, rawBody []byte, isPost bool) {
		b := get
		if isPost {
			b = post
		}
		body, err := parseObject(rawBody)
		if err != nil {
			requireNamedRefusal(t, err)
			return
		}
		raw, err := b.merge(map[string]string{"id": id}, query, body)
		if tools.HostileText(id) != "" {
			require.Equal(t, core.CodeNotFound, core.ErrorCode(err), "a hostile path ID is 404: %v", err)
			return
		}
		if err != nil {
			requireNamedRefusal(t, err)
			return
		}
		// What passes is text the database stores: no NUL, all UTF-8.
		require.True(t, utf8.Valid(raw), "%q", raw)
		require.NoError(t, tools.CheckJSON(raw), "%q", raw)
		require.True(t, utf8.Valid(rawBody), "a body that is not UTF-8 was accepted: %q", rawBody)
		var args map[string]any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		require.NoError(t, dec.Decode(&args), "%s", raw)
		if utf8.ValidString(id) {
			require.Equal(t, id, args["id"])
		}
		values, _ := url.ParseQuery(query)
		for k := range args {
			_, inBody := body[k]
			_, inQuery := values[k]
			require.True(t, k == "id" || inBody || inQuery, "argument %q came from nowhere", k)
			if inQuery {
				_, known := b.props[k]
				require.True(t, known && !isPost, "query parameter %q accepted", k)
			}
		}
		if n, ok := args["limit"].(json.Number); ok && values.Has("limit") {
			_, err := n.Int64()
			require.NoError(t, err, "limit must coerce to an integer")
		}
	})
}

func requireNamedRefusal(t *testing.T, err error) {
	t.Helper()
	e := core.AsError(err)
	require.Contains(t, []core.Code{core.CodeValidation, core.CodeInvalidJSON}, e.Code, e.Message)
	if e.Code == core.CodeInvalidJSON {
		require.True(t, strings.HasPrefix(e.Message, "body: "), e.Message)
		return
	}
	require.NotEmpty(t, e.Fields, e.Message)
	for _, f := range e.Fields {
		require.NotEmpty(t, f)
		require.Contains(t, e.Message, f+": ")
	}
	require.True(t, strings.HasPrefix(e.Message, e.Fields[0]+": "), "the message names the field first: %q", e.Message)
}
