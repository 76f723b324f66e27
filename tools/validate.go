package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/giftwell/giftwell/core"
)

// maxErrors caps how many problems one VALIDATION_ERROR lists.
const maxErrors = 10

// decodeArgs checks raw arguments against the tool's input schema and then
// decodes them into v. Every refusal is a VALIDATION_ERROR whose message
// names each offending field by its path (recipients[2].email); syntax errors
// are INVALID_JSON. Absent or null arguments are an empty object.
func decodeArgs(s *jsonschema.Schema, raw json.RawMessage, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return &core.Error{Code: core.CodeInvalidJSON, Message: "arguments: invalid JSON: " + err.Error()}
	}
	if dec.More() {
		return &core.Error{Code: core.CodeInvalidJSON, Message: "arguments: invalid JSON: more than one value"}
	}
	if _, ok := doc.(map[string]any); !ok {
		return core.Invalid("arguments", "must be a JSON object")
	}
	var c checker
	c.check("", s, doc)
	if err := c.err(); err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return core.Invalid(te.Field, "must be %s", te.Type)
		}
		return core.Invalid("arguments", "%v", err)
	}
	return nil
}

// checker collects schema violations.
type checker struct {
	problems []string
	fields   []string
}

func (c *checker) add(path, format string, args ...any) {
	if len(c.problems) >= maxErrors {
		return
	}
	name := path
	if name == "" {
		name = "arguments"
	}
	c.problems = append(c.problems, name+": "+fmt.Sprintf(format, args...))
	c.fields = append(c.fields, name)
}

func (c *checker) err() error {
	if len(c.problems) == 0 {
		return nil
	}
	return &core.Error{Code: core.CodeValidation, Message: strings.Join(c.problems, "; "), Fields: c.fields}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func isFalse(s *jsonschema.Schema) bool {
	return s != nil && s.Not != nil && s.Not.Type == "" && len(s.Not.Types) == 0 && s.Not.Properties == nil
}

func types(s *jsonschema.Schema) []string {
	if s.Type != "" {
		return []string{s.Type}
	}
	return s.Types
}

func typeOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if _, err := strconv.ParseInt(x.String(), 10, 64); err == nil {
			return "integer"
		}
		if f, err := x.Float64(); err == nil && f == math.Trunc(f) && !strings.ContainsAny(x.String(), ".eE") {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

func typeMatches(want []string, got string) bool {
	if len(want) == 0 {
		return true
	}
	for _, w := range want {
		if w == got || (w == "number" && got == "integer") {
			return true
		}
	}
	return false
}

func describe(want []string) string {
	names := slices.DeleteFunc(slices.Clone(want), func(s string) bool { return s == "null" })
	for i, n := range names {
		switch n {
		case "object", "array", "integer":
			names[i] = "an " + n
		default:
			names[i] = "a " + n
		}
	}
	return strings.Join(names, " or ")
}

func (c *checker) check(path string, s *jsonschema.Schema, v any) {
	if s == nil {
		return
	}
	got := typeOf(v)
	if want := types(s); !typeMatches(want, got) {
		c.add(path, "must be %s", describe(want))
		return
	}
	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
		var opts []string
		for _, e := range s.Enum {
			opts = append(opts, fmt.Sprint(e))
		}
		c.add(path, "must be one of %s", strings.Join(opts, ", "))
		return
	}
	switch x := v.(type) {
	case string:
		c.checkString(path, s, x)
	case json.Number:
		c.checkNumber(path, s, x)
	case []any:
		if s.MinItems != nil && len(x) < *s.MinItems {
			c.add(path, "must have at least %d items", *s.MinItems)
		}
		if s.MaxItems != nil && len(x) > *s.MaxItems {
			c.add(path, "must have at most %d items", *s.MaxItems)
		}
		for i, item := range x {
			c.check(fmt.Sprintf("%s[%d]", path, i), s.Items, item)
		}
	case map[string]any:
		c.checkObject(path, s, x)
	}
}

func (c *checker) checkString(path string, s *jsonschema.Schema, x string) {
	n := utf8.RuneCountInString(x)
	if s.MinLength != nil && n < *s.MinLength {
		if *s.MinLength == 1 {
			c.add(path, "must not be empty")
		} else {
			c.add(path, "must be at least %d characters", *s.MinLength)
		}
	}
	if s.MaxLength != nil && n > *s.MaxLength {
		c.add(path, "must be at most %d characters", *s.MaxLength)
	}
	if s.Pattern != "" && !compiled(s.Pattern).MatchString(x) {
		c.add(path, "has an invalid format")
	}
}

func (c *checker) checkNumber(path string, s *jsonschema.Schema, x json.Number) {
	f, err := x.Float64()
	if err != nil {
		c.add(path, "is out of range")
		return
	}
	switch {
	case s.Minimum != nil && f < *s.Minimum:
		c.add(path, "must be at least %s", strconv.FormatFloat(*s.Minimum, 'f', -1, 64))
	case s.Maximum != nil && f > *s.Maximum:
		c.add(path, "must be at most %s", strconv.FormatFloat(*s.Maximum, 'f', -1, 64))
	case !typeMatches(types(s), "number") && f != float64(int64(f)):
		c.add(path, "is out of range")
	}
}

func (c *checker) checkObject(path string, s *jsonschema.Schema, x map[string]any) {
	for _, r := range s.Required {
		if _, ok := x[r]; !ok {
			c.add(join(path, r), "is required")
		}
	}
	if s.MaxProperties != nil && len(x) > *s.MaxProperties {
		c.add(path, "must have at most %d entries", *s.MaxProperties)
	}
	keys := make([]string, 0, len(x))
	for k := range x {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if ps, ok := s.Properties[k]; ok {
			c.check(join(path, k), ps, x[k])
			continue
		}
		switch {
		case isFalse(s.AdditionalProperties):
			c.add(join(path, k), "is not a known field")
		case s.AdditionalProperties != nil:
			c.check(join(path, k), s.AdditionalProperties, x[k])
		}
	}
}

var patterns sync.Map

func compiled(p string) *regexp.Regexp {
	if r, ok := patterns.Load(p); ok {
		return r.(*regexp.Regexp)
	}
	r := regexp.MustCompile(p)
	patterns.Store(p, r)
	return r
}
