package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// coerce turns the text values of one path or query parameter into the JSON
// value its schema describes. It returns the value, or a problem naming what
// the value must be. The rules (recorded in docs/decisions/):
//
//   - integer: a base-10 int64; number: a finite decimal; boolean: true or
//     false (any case); string: the text as sent; object: a JSON object.
//   - array: the values split on commas (a repeated parameter adds more),
//     each item trimmed and coerced to the item type; empty items are
//     dropped, so ?ids= is an empty list.
//   - a scalar given more than once is refused.
//   - a schema with several types tries integer, number, boolean, object,
//     then string; a schema with no type keeps the text.
//
// Bounds, enums and patterns are left to the tool's validator, which names
// the parameter the same way.
func coerce(s *jsonschema.Schema, values []string) (any, string) {
	kinds := nonNullTypes(s)
	if slices.Contains(kinds, "array") {
		var items jsonschema.Schema
		if s.Items != nil {
			items = *s.Items
		}
		out := []any{}
		for _, v := range values {
			for part := range strings.SplitSeq(v, ",") {
				part = strings.TrimSpace(part)
				if part == "" {
					continue
				}
				item, msg := coerceOne(&items, part)
				if msg != "" {
					return nil, fmt.Sprintf("must be a comma-separated list; item %d %s", len(out)+1, msg)
				}
				out = append(out, item)
			}
		}
		return out, ""
	}
	if len(values) != 1 {
		return nil, "must be given once"
	}
	return coerceOne(s, values[0])
}

// coerceOne converts one text value to a scalar (or object) of the schema's type.
func coerceOne(s *jsonschema.Schema, v string) (any, string) {
	kinds := nonNullTypes(s)
	if len(kinds) == 0 {
		return v, ""
	}
	for _, k := range []string{"integer", "number", "boolean", "object", "string"} {
		if !slices.Contains(kinds, k) {
			continue
		}
		if out, ok := convert(k, v); ok {
			return out, ""
		}
	}
	return nil, "must be " + describeTypes(kinds)
}

// convert converts v to kind, reporting whether it could.
func convert(kind, v string) (any, bool) {
	switch kind {
	case "integer":
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, false
		}
		return json.Number(strconv.FormatInt(n, 10)), true
	case "number":
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, false
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), true
	case "boolean":
		switch strings.ToLower(v) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
		return nil, false
	case "object":
		dec := json.NewDecoder(bytes.NewReader([]byte(v)))
		dec.UseNumber()
		var m map[string]any
		if err := dec.Decode(&m); err != nil || m == nil || dec.More() {
			return nil, false
		}
		return m, true
	case "string":
		return v, true
	}
	return nil, false
}

// describeTypes names the types for a message: "an integer", "true or false".
func describeTypes(kinds []string) string {
	var names []string
	for _, k := range kinds {
		switch k {
		case "integer":
			names = append(names, "an integer")
		case "number":
			names = append(names, "a number")
		case "boolean":
			names = append(names, "true or false")
		case "object":
			names = append(names, "a JSON object")
		case "array":
			names = append(names, "a comma-separated list")
		default:
			names = append(names, "a "+k)
		}
	}
	return strings.Join(names, " or ")
}
