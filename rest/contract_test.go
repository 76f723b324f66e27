package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/tools"
)

// contractCase is one request built from the document: valid, or with one
// field given one value its schema refuses.
type contractCase struct {
	method, path string // path with its parameters filled in, relative to /api/v1
	query        url.Values
	body         map[string]any // nil: no body
	field        string         // the invalid field; "" for a valid request
	value        any
}

// shapeProblems are the validator's words (tools/validate.go,
// tools/format.go, tools/text.go): a VALIDATION_ERROR that says one of
// them refused the request for its shape.
var shapeProblems = []string{
	"is required", "is not a known field", "must be a string", "must be an integer", "must be a number",
	"must be a boolean", "must be an array", "must be an object", "must be one of", "must be at least",
	"must be at most", "must not be empty", "has an invalid format", "must have at", "is not valid base64",
	"must be a date, YYYY-MM-DD", "must be a time in RFC 3339", "must be an absolute URL", "NUL character",
}

// TestRequestsFromTheDocument builds requests from the OpenAPI 3.1 document
// for every operation: a valid one, generated from its schemas, which the
// server must never refuse for its shape (a domain answer such as
// NOT_FOUND is fine), and for every constrained field of its parameters
// and body one request with a value the schema refuses, which the server
// must refuse with VALIDATION_ERROR naming that field.
func TestRequestsFromTheDocument(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	doc := h.docs[1].doc
	require.True(t, doc.IsOpenAPI31OrLater())

	var cases []contractCase
	var skipped []string
	paths := doc.Paths.InMatchingOrder()
	sort.Strings(paths)
	for _, p := range paths {
		item := doc.Paths.Value(p)
		methods := make([]string, 0, 5)
		for m := range item.Operations() {
			methods = append(methods, m)
		}
		sort.Strings(methods)
		for _, m := range methods {
			op := item.GetOperation(m)
			if op.Deprecated || (op.RequestBody != nil && op.RequestBody.Value.Content.Get("application/json") == nil) {
				skipped = append(skipped, op.OperationID)
				continue
			}
			cases = append(cases, casesFor(m, p, op)...)
		}
	}

	valid, invalid := 0, 0
	var problems []string
	answers := map[string]int{} // what the valid requests got
	for _, c := range cases {
		token, _ := h.env.SignIn(t, h.env.OwnerEmail)
		status, code, msg := h.send(c, token)
		name := fmt.Sprintf("%s %s", c.method, c.path)
		if c.field == "" {
			valid++
			answers[strconv.Itoa(status)+" "+code]++
			if status >= 400 && status != http.StatusNotFound {
				t.Logf("%s: %d %s %s", name, status, code, msg)
			}
			if code == "VALIDATION_ERROR" && slices.ContainsFunc(shapeProblems, func(p string) bool { return strings.Contains(msg, p) }) {
				problems = append(problems, fmt.Sprintf("%s: a request valid by the document is refused for its shape: %s", name, msg))
			}
			continue
		}
		invalid++
		if status != http.StatusBadRequest || code != "VALIDATION_ERROR" || !strings.Contains(msg, c.field) {
			problems = append(problems, fmt.Sprintf("%s: %s=%q is answered %d %s %s", name, c.field, fmt.Sprint(c.value), status, code, msg))
		}
	}
	require.Empty(t, problems, "%d of %d cases:\n%s", len(problems), len(cases), strings.Join(problems, "\n"))
	t.Logf("%d cases from the document: %d valid requests (answered %v), %d with one invalid field; operations not generated (retired or raw body): %s",
		len(cases), valid, answers, invalid, strings.Join(skipped, ", "))
}

// send sends c as the signed-in owner and returns the status and, for an
// error, the envelope's code and message.
func (h *harness) send(c contractCase, token string) (int, string, string) {
	h.t.Helper()
	var body io.Reader
	if c.body != nil {
		raw, err := json.Marshal(c.body)
		require.NoError(h.t, err)
		body = bytes.NewReader(raw)
	}
	u := h.base + c.path
	if len(c.query) > 0 {
		u += "?" + c.query.Encode()
	}
	req, err := http.NewRequest(c.method, u, body)
	require.NoError(h.t, err)
	for _, o := range signedIn(h, token) {
		o(req)
	}
	if c.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := h.srv.Client().Do(req)
	require.NoError(h.t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(h.t, err)
	var env struct {
		Code  string `json:"code"`
		Error string `json:"error"`
	}
	if res.StatusCode >= 300 {
		require.NoError(h.t, json.Unmarshal(raw, &env), "%s %s: %s", c.method, c.path, raw)
	}
	return res.StatusCode, env.Code, env.Error
}

// casesFor is the valid request of op and one invalid request per
// constrained parameter or top-level body field.
func casesFor(method, path string, op *openapi3.Operation) []contractCase {
	base := contractCase{method: strings.ToUpper(method), query: url.Values{}}
	pathValues := map[string]string{}
	type param struct {
		name, in string
		schema   *openapi3.Schema
	}
	var params []param
	for _, pr := range op.Parameters {
		p := pr.Value
		if p.In != "path" && p.In != "query" {
			continue
		}
		s := paramSchema(p)
		params = append(params, param{p.Name, p.In, s})
		if p.In == "path" {
			pathValues[p.Name] = queryText(validValue(s, p.Name))
		} else if p.Required {
			base.query.Set(p.Name, queryText(validValue(s, p.Name)))
		}
	}
	fill := func(values map[string]string) string {
		out := path
		for k, v := range values {
			out = strings.ReplaceAll(out, "{"+k+"}", url.PathEscape(v))
		}
		return out
	}
	base.path = fill(pathValues)
	var body *openapi3.Schema
	if op.RequestBody != nil {
		body = op.RequestBody.Value.Content.Get("application/json").Schema.Value
		base.body = validValue(body, "").(map[string]any)
	}
	cases := []contractCase{base}
	for _, p := range params {
		bad, ok := invalidValue(p.schema, p.in == "body")
		if !ok {
			continue
		}
		c := base
		c.field, c.value = p.name, bad
		c.query = url.Values{}
		for k, v := range base.query {
			c.query[k] = v
		}
		if p.in == "path" {
			values := map[string]string{}
			for k, v := range pathValues {
				values[k] = v
			}
			values[p.name] = queryText(bad)
			c.path = fill(values)
		} else {
			c.query.Set(p.name, queryText(bad))
		}
		cases = append(cases, c)
	}
	if body != nil {
		names := make([]string, 0, len(body.Properties))
		for name := range body.Properties {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			bad, ok := invalidValue(body.Properties[name].Value, true)
			if !ok {
				continue
			}
			c := base
			c.body = map[string]any{}
			for k, v := range base.body {
				c.body[k] = v
			}
			c.body[name] = bad
			c.field, c.value = name, bad
			cases = append(cases, c)
		}
	}
	return cases
}

// paramSchema is a parameter's schema (an object parameter's is in its content).
func paramSchema(p *openapi3.Parameter) *openapi3.Schema {
	if p.Schema != nil {
		return p.Schema.Value
	}
	for _, mt := range p.Content {
		return mt.Schema.Value
	}
	return &openapi3.Schema{}
}

// queryText writes a value as a query parameter: a list comma-separated
// (style form, explode false), an object as JSON.
func queryText(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case []any:
		parts := make([]string, len(x))
		for i, item := range x {
			parts[i] = queryText(item)
		}
		return strings.Join(parts, ",")
	case map[string]any:
		raw, _ := json.Marshal(x)
		return string(raw)
	}
	return fmt.Sprint(v)
}

// kind is the schema's first type that is not null.
func kind(s *openapi3.Schema) string {
	if s.Type == nil {
		return ""
	}
	for _, k := range *s.Type {
		if k != "null" {
			return k
		}
	}
	return ""
}

// validValue is a value s accepts: its required properties only, the
// least of every bound, a string that matches its pattern.
func validValue(s *openapi3.Schema, name string) any {
	if len(s.Enum) > 0 {
		return s.Enum[0]
	}
	switch kind(s) {
	case "boolean":
		return false
	case "integer", "number":
		n := 1.0
		if s.Min != nil && *s.Min > n {
			n = *s.Min
		}
		if s.Max != nil && *s.Max < n {
			n = *s.Max
		}
		return n
	case "array":
		out := []any{}
		for range max(s.MinItems, 1) {
			out = append(out, validValue(s.Items.Value, name))
		}
		return out
	case "object":
		out := map[string]any{}
		for _, r := range s.Required {
			out[r] = validValue(s.Properties[r].Value, r)
		}
		return out
	case "string":
		return validString(s, name)
	}
	return "x"
}

func validString(s *openapi3.Schema, name string) string {
	switch {
	case s.Format == "date":
		return "2026-03-01"
	case s.Format == "date-time":
		return "2026-03-01T09:30:00Z"
	case s.Format == "uri":
		return "https://example.com/a.png"
	case s.ContentEncoding == "base64":
		return "aGVsbG8="
	}
	v := "x1"
	lower := strings.ToLower(name)
	switch {
	case strings.Contains(lower, "email"):
		v = "ada@example.com"
	case strings.HasSuffix(lower, "url") || lower == "website":
		v = "https://example.com/a"
	}
	if s.Pattern != "" && s.Pattern != tools.TextPattern && !regexp.MustCompile(s.Pattern).MatchString(v) {
		v = matching(s.Pattern)
	}
	for len(v) < int(s.MinLength) {
		v += "x"
	}
	if s.MaxLength != nil && len(v) > int(*s.MaxLength) {
		v = v[:*s.MaxLength]
	}
	return v
}

// matching is a short string the pattern matches.
func matching(pattern string) string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		panic(err)
	}
	var b strings.Builder
	var walk func(r *syntax.Regexp)
	walk = func(r *syntax.Regexp) {
		switch r.Op {
		case syntax.OpLiteral:
			b.WriteString(string(r.Rune))
		case syntax.OpCharClass:
			pick := r.Rune[0]
			for i := 0; i+1 < len(r.Rune); i += 2 {
				if r.Rune[i] <= 'a' && 'a' <= r.Rune[i+1] {
					pick = 'a'
					break
				}
				if r.Rune[i] <= '0' && '0' <= r.Rune[i+1] {
					pick = '0'
				}
			}
			b.WriteRune(pick)
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			b.WriteByte('a')
		case syntax.OpPlus:
			walk(r.Sub[0])
		case syntax.OpRepeat:
			for range r.Min {
				walk(r.Sub[0])
			}
		case syntax.OpConcat, syntax.OpCapture:
			for _, sub := range r.Sub {
				walk(sub)
			}
		case syntax.OpAlternate:
			walk(r.Sub[0])
		}
	}
	walk(re)
	return b.String()
}

// invalidValue is one value s refuses, for its first rule: enum, format or
// encoding, pattern, bounds, lengths, item counts, or a null list (in a
// body). ok is false when s has no rule a value can break.
func invalidValue(s *openapi3.Schema, inBody bool) (any, bool) {
	switch k := kind(s); {
	case len(s.Enum) > 0:
		return "not-one-of-these", true
	case k == "string" && s.Format == "date":
		return "2026-02-30", true
	case k == "string" && s.Format == "date-time":
		return "2026-03-01 09:30", true
	case k == "string" && s.Format == "uri":
		return "not a url", true
	case k == "string" && s.ContentEncoding == "base64":
		return "@@@", true
	case k == "string" && s.Pattern != "":
		re := regexp.MustCompile(s.Pattern)
		for _, v := range []string{"http://example.com/a", "a b!", "a\x00b"} {
			if !re.MatchString(v) {
				return v, true
			}
		}
	case (k == "integer" || k == "number") && s.Min != nil:
		return *s.Min - 1, true
	case (k == "integer" || k == "number") && s.Max != nil:
		return *s.Max + 1, true
	case k == "string" && s.MaxLength != nil:
		return strings.Repeat("a", int(*s.MaxLength)+1), true
	case k == "string" && s.MinLength > 0 && inBody:
		return "", true
	case k == "array" && s.MinItems > 0 && inBody:
		return []any{}, true
	case k == "array" && s.MaxItems != nil:
		out := make([]any, int(*s.MaxItems)+1)
		for i := range out {
			out[i] = validValue(s.Items.Value, "")
		}
		return out, true
	case k == "array" && inBody && !slices.Contains(*s.Type, "null"):
		return nil, true
	}
	return nil, false
}
