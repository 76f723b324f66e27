package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

type item struct {
	Key  string `json:"key" schema:"minLength=1,maxLength=5"`
	Note string `json:"note,omitempty"`
}

type sample struct {
	Limit  int               `json:"limit,omitempty" schema:"minimum=1,maximum=100,default=50"`
	Detail string            `json:"detail,omitempty" schema:"enum=compact|full"`
	Name   string            `json:"name" schema:"minLength=1,maxLength=3"`
	Items  []item            `json:"items,omitempty" schema:"maxItems=2"`
	Meta   map[string]string `json:"meta,omitempty" schema:"maxProperties=2,items.maxLength=4"`
	Flag   *bool             `json:"flag,omitempty"`
	Code   string            `json:"code,omitempty" schema:"pattern=^[a-z]+$"`
}

func decodeSample(t *testing.T, raw string) (sample, error) {
	t.Helper()
	s, err := schemaFor[sample]()
	require.NoError(t, err)
	var v sample
	err = decodeArgs(newValidator("sample", s), json.RawMessage(raw), &v)
	return v, err
}

func TestDecodeArgsNamesFields(t *testing.T) {
	t.Parallel()
	cases := []struct {
		raw, code, message string
	}{
		{`{"name":"ab","limit":0}`, "VALIDATION_ERROR", "limit: must be at least 1"},
		{`{"name":"ab","limit":101}`, "VALIDATION_ERROR", "limit: must be at most 100"},
		{`{"name":"ab","limit":1.5}`, "VALIDATION_ERROR", "limit: must be an integer"},
		{`{"name":"ab","limit":"5"}`, "VALIDATION_ERROR", "limit: must be an integer"},
		{`{"name":"ab","limit":99999999999999999999999}`, "VALIDATION_ERROR", "limit: must be at most 100"},
		{`{"name":"ab","detail":"huge"}`, "VALIDATION_ERROR", "detail: must be one of compact, full"},
		{`{}`, "VALIDATION_ERROR", "name: is required"},
		{`{"name":""}`, "VALIDATION_ERROR", "name: must not be empty"},
		{`{"name":"abcd"}`, "VALIDATION_ERROR", "name: must be at most 3 characters"},
		{`{"name":"ab","extra":1}`, "VALIDATION_ERROR", "extra: is not a known field"},
		{`{"name":"ab","items":[{"key":"k"},{"key":"toolong"}]}`, "VALIDATION_ERROR", "items[1].key: must be at most 5 characters"},
		{`{"name":"ab","items":[{"key":"k","bogus":true}]}`, "VALIDATION_ERROR", "items[0].bogus: is not a known field"},
		{`{"name":"ab","items":[{}]}`, "VALIDATION_ERROR", "items[0].key: is required"},
		{`{"name":"ab","items":[{"key":"a"},{"key":"b"},{"key":"c"}]}`, "VALIDATION_ERROR", "items: must have at most 2 items"},
		{`{"name":"ab","meta":{"a":"12345"}}`, "VALIDATION_ERROR", "meta.a: must be at most 4 characters"},
		{`{"name":"ab","meta":{"a":"1","b":"2","c":"3"}}`, "VALIDATION_ERROR", "meta: must have at most 2 entries"},
		{`{"name":"ab","meta":{"a":1}}`, "VALIDATION_ERROR", "meta.a: must be a string"},
		{`{"name":"ab","flag":"yes"}`, "VALIDATION_ERROR", "flag: must be a boolean"},
		{`{"name":"ab","code":"ABC"}`, "VALIDATION_ERROR", "code: has an invalid format"},
		{`[1,2]`, "VALIDATION_ERROR", "arguments: must be a JSON object"},
		{`{"name":`, "INVALID_JSON", ""},
		{`{"name":"a"} {"name":"b"}`, "INVALID_JSON", ""},
	}
	for _, c := range cases {
		_, err := decodeSample(t, c.raw)
		require.Error(t, err, c.raw)
		e := core.AsError(err)
		require.Equal(t, c.code, string(e.Code), "%s: %s", c.raw, e.Message)
		if c.message != "" {
			require.Equal(t, c.message, e.Message, c.raw)
		}
	}
}

func TestDecodeArgsAccepts(t *testing.T) {
	t.Parallel()
	v, err := decodeSample(t, `{"name":"äöü","limit":100,"detail":"full","items":[{"key":"k","note":"n"}],"meta":{"a":"1"},"flag":null}`)
	require.NoError(t, err)
	require.Equal(t, sample{Name: "äöü", Limit: 100, Detail: "full", Items: []item{{Key: "k", Note: "n"}}, Meta: map[string]string{"a": "1"}}, v)

	_, err = decodeSample(t, ``)
	require.Equal(t, "name: is required", core.AsError(err).Message, "absent arguments are an empty object")
}

func TestDecodeArgsListsSeveralProblems(t *testing.T) {
	t.Parallel()
	_, err := decodeSample(t, `{"limit":0,"detail":"x"}`)
	e := core.AsError(err)
	require.Equal(t, []string{"name", "detail", "limit"}, e.Fields)
	require.Equal(t, "name: is required; detail: must be one of compact, full; limit: must be at least 1", e.Message)
}

func TestSchemaTagsAppear(t *testing.T) {
	t.Parallel()
	s, err := schemaFor[sample]()
	require.NoError(t, err)
	b, err := json.Marshal(s.Properties["limit"])
	require.NoError(t, err)
	require.JSONEq(t, `{"type":"integer","minimum":1,"maximum":100,"default":50}`, string(b))
	require.Equal(t, []string{"name"}, s.Required)
}

func FuzzDecodeArgs(f *testing.F) {
	for _, seed := range []string{`{}`, `{"name":"ab","limit":5}`, `{"items":[{"key":1}]}`, `[`, `null`, `{"meta":{"a":{"b":[]}}}`, `{"limit":1e400}`,
		// Hostile text: a NUL or bytes that are not UTF-8, in values and keys.
		`{"name":"a\u0000b"}`, "{\"name\":\"a\xffb\"}", `{"items":[{"key":1},{"key":"\u0000"}]}`, `{"meta":{"a\u0000":{}}}`,
		"{\"meta\":{\"\xc3\x28\":[\"\xfe\"]}}", `{"name":"\\u0000"}`, `["\u0000"]`, "\"\xff\""} {
		f.Add(seed)
	}
	s, err := schemaFor[sample]()
	require.NoError(f, err)
	val := newValidator("sample", s)
	f.Fuzz(func(t *testing.T, raw string) {
		var v sample
		err := decodeArgs(val, json.RawMessage(raw), &v)
		if err != nil {
			e := core.AsError(err)
			if e.Code != core.CodeValidation && e.Code != core.CodeInvalidJSON {
				t.Fatalf("unexpected code %s for %q", e.Code, raw)
			}
		}
		// CheckJSON refuses exactly the documents with a NUL or bytes that
		// are not UTF-8 in a string or key; what decodes is storable text.
		var doc any
		if json.Unmarshal([]byte(raw), &doc) == nil {
			hostile := !utf8.ValidString(raw) || CheckText(doc) != nil
			if got := CheckJSON([]byte(raw)) != nil; got != hostile {
				t.Fatalf("CheckJSON(%q) refused=%v, want %v", raw, got, hostile)
			}
			if err == nil && hostile {
				t.Fatalf("decodeArgs accepted hostile text %q", raw)
			}
		}
	})
}

func TestDecodeArgsNumbers(t *testing.T) {
	t.Parallel()
	type counts struct {
		N     int     `json:"n,omitempty"`
		Ratio float64 `json:"ratio,omitempty"`
	}
	s, err := schemaFor[counts]()
	require.NoError(t, err)
	val := newValidator("counts", s)
	for raw, want := range map[string]string{
		`{"n":1.0}`:                     "n: must be an integer", // JSON Schema's integer, not a Go int
		`{"n":1e2}`:                     "n: must be an integer",
		`{"n":99999999999999999999999}`: "n: is out of range",
		`{"ratio":1e400}`:               "ratio: is out of range",
		`{"n":"1","ratio":"x"}`:         "n: must be an integer; ratio: must be a number",
	} {
		var v counts
		err := decodeArgs(val, json.RawMessage(raw), &v)
		require.Error(t, err, raw)
		require.Equal(t, want, core.AsError(err).Message, raw)
	}
	var v counts
	require.NoError(t, decodeArgs(val, json.RawMessage(`{"n":-3,"ratio":0.5}`), &v))
	require.Equal(t, counts{N: -3, Ratio: 0.5}, v)
}

// A keyword the API has no words of its own for is still enforced, in
// jsonschema-go's words after the field's path.
func TestDecodeArgsOtherKeywords(t *testing.T) {
	t.Parallel()
	type tagged struct {
		Tags []string `json:"tags,omitempty"`
	}
	s, err := schemaFor[tagged]()
	require.NoError(t, err)
	s.Properties["tags"].UniqueItems = true
	val := newValidator("tagged", s)
	var v tagged
	err = decodeArgs(val, json.RawMessage(`{"tags":["a","a"]}`), &v)
	e := core.AsError(err)
	require.Equal(t, core.CodeValidation, e.Code)
	require.Equal(t, []string{"tags"}, e.Fields)
	require.True(t, strings.HasPrefix(e.Message, "tags: uniqueItems: "), e.Message)
	require.NoError(t, decodeArgs(val, json.RawMessage(`{"tags":["a","b"]}`), &v))
}

func TestDecodeArgsCapsProblems(t *testing.T) {
	t.Parallel()
	raw := `{"name":"ab"`
	for i := range 15 {
		raw += fmt.Sprintf(`,"x%02d":1`, i)
	}
	_, err := decodeSample(t, raw+"}")
	e := core.AsError(err)
	require.Len(t, e.Fields, maxErrors)
	require.Equal(t, "x00", e.Fields[0])
	require.Equal(t, "x09", e.Fields[9])
}

// TestEveryToolResolves resolves the validator of every tool and every REST
// form, as their first calls do: the registry builds them lazily, so a
// schema jsonschema-go cannot resolve is found here and not by a caller.
func TestEveryToolResolves(t *testing.T) {
	t.Parallel()
	for _, tool := range All(nil) {
		_, err := newValidator(tool.Name, tool.InputSchema).resolve()
		require.NoError(t, err, tool.Name)
		if tool.Route != nil && tool.Route.Form != nil {
			_, err := newValidator(tool.Name+" (REST form)", tool.Route.Form.InputSchema).resolve()
			require.NoError(t, err, tool.Name+" (REST form)")
		}
	}
}

// TestAnUnresolvableSchemaIsRefusedAtCall shows what a schema jsonschema-go
// cannot resolve does at its first call: an error, not a panic.
func TestAnUnresolvableSchemaIsRefusedAtCall(t *testing.T) {
	t.Parallel()
	bad := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"x": {Pattern: "("}}}
	var v map[string]any
	err := decodeArgs(newValidator("bad", bad), json.RawMessage(`{"x":"a"}`), &v)
	require.ErrorContains(t, err, "bad: schema does not resolve")
}

// A validator's tree is resolved once, at the first call, however many
// calls arrive at that moment, and each call still names its own problems
// (run with -race).
func TestAValidatorResolvesOnceUnderConcurrentCalls(t *testing.T) {
	t.Parallel()
	s, err := schemaFor[sample]()
	require.NoError(t, err)
	val := newValidator("sample", s)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			var v sample
			if i%2 == 0 {
				require.NoError(t, decodeArgs(val, json.RawMessage(`{"name":"ab"}`), &v))
				require.Equal(t, "ab", v.Name)
				return
			}
			err := decodeArgs(val, json.RawMessage(`{"name":"abcd","limit":0}`), &v)
			require.ErrorContains(t, err, "name: must be at most 3 characters")
			require.ErrorContains(t, err, "limit: must be at least 1")
		})
	}
	wg.Wait()
	root, err := val.resolve()
	require.NoError(t, err)
	require.NotNil(t, root)
}
