package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/giftwell/giftwell/core"
)

// schemaFor infers the JSON schema of T with jsonschema-go (the library
// go-sdk uses), then applies the `schema` struct tags that carry the spec's
// bounds, so that the documented schema and the enforced one are the same
// value. A tag is a comma-separated list of key=value:
//
//	minimum=1, maximum=100        numbers
//	minLength=1, maxLength=200    strings, counted in characters
//	minItems=1, maxItems=500      arrays
//	maxProperties=10              maps
//	enum=compact|full             allowed values (strings)
//	pattern=^[a-z]+$              a regular expression (no commas)
//	format=date                   date, date-time or uri: asserted (tools/format.go)
//	contentEncoding=base64        the string is standard base64: asserted
//	default=50                    the default, as JSON
//	items.maxLength=400           the same keys applied to array items or map values
//	type=string                   replaces the inferred type (a *string that refuses null)
//
// Fields whose json tag lacks omitempty/omitzero are required. A slice is
// an array, never null (jsonschema-go types it nullable); a pointer to one
// stays nullable.
func schemaFor[T any]() (*jsonschema.Schema, error) {
	return inferSchema[T](false)
}

// payloadSchemaFor is schemaFor for a payload the server writes: a pointer
// field that is left out when nil (omitempty, omitzero) is never null.
func payloadSchemaFor[T any]() (*jsonschema.Schema, error) {
	return inferSchema[T](true)
}

func inferSchema[T any](payload bool) (*jsonschema.Schema, error) {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		return nil, err
	}
	if err := applyTags(reflect.TypeFor[T](), s, payload); err != nil {
		return nil, err
	}
	return s, nil
}

// applyTags walks t and s together and applies `schema` tags; payload says
// s describes what the server writes rather than what it reads.
func applyTags(t reflect.Type, s *jsonschema.Schema, payload bool) error {
	if s == nil {
		return nil
	}
	pointer := t.Kind() == reflect.Pointer
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if !pointer && s.Type == "" && slices.Equal(s.Types, []string{"null", "array"}) {
			// A list is never null: an argument that is null is refused, and
			// a payload's empty list is written [] (EmptyLists).
			s.Type, s.Types = "array", nil
		}
		return applyTags(t.Elem(), s.Items, payload)
	case reflect.Map:
		return applyTags(t.Elem(), s.AdditionalProperties, payload)
	case reflect.Struct:
		for _, f := range reflect.VisibleFields(t) {
			if !f.IsExported() || f.Anonymous {
				continue
			}
			name := jsonName(f)
			if name == "" {
				continue
			}
			fs := s.Properties[name]
			if fs == nil {
				continue
			}
			if err := applyTags(f.Type, fs, payload); err != nil {
				return err
			}
			if payload && f.Type.Kind() == reflect.Pointer && omitted(f) {
				dropNull(fs)
			}
			if tag, ok := f.Tag.Lookup("schema"); ok {
				if err := applyTag(fs, tag); err != nil {
					return fmt.Errorf("%s.%s: %w", t.Name(), f.Name, err)
				}
			}
		}
	}
	return nil
}

// omitted reports whether encoding/json leaves f out when it is nil.
func omitted(f reflect.StructField) bool {
	tag := f.Tag.Get("json")
	return hasOption(tag, "omitempty") || hasOption(tag, "omitzero")
}

// dropNull takes null out of s's types.
func dropNull(s *jsonschema.Schema) {
	if !slices.Contains(s.Types, "null") {
		return
	}
	s.Types = slices.DeleteFunc(slices.Clone(s.Types), func(k string) bool { return k == "null" })
	if len(s.Types) == 1 {
		s.Type, s.Types = s.Types[0], nil
	}
}

func jsonName(f reflect.StructField) string {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return ""
	}
	name, _, _ := strings.Cut(tag, ",")
	if name == "" {
		return f.Name
	}
	return name
}

func applyTag(s *jsonschema.Schema, tag string) error {
	for part := range strings.SplitSeq(tag, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return fmt.Errorf("schema tag %q: want key=value", part)
		}
		target := s
		if rest, found := strings.CutPrefix(key, "items."); found {
			target = s.Items
			if target == nil {
				target = s.AdditionalProperties
			}
			if target == nil {
				return fmt.Errorf("schema tag %q: no items", part)
			}
			key = rest
		}
		if err := setKey(target, key, val); err != nil {
			return fmt.Errorf("schema tag %q: %w", part, err)
		}
	}
	return nil
}

func setKey(s *jsonschema.Schema, key, val string) error {
	num := func() (float64, error) { return strconv.ParseFloat(val, 64) }
	count := func() (int, error) { return strconv.Atoi(val) }
	switch key {
	case "minimum", "maximum":
		f, err := num()
		if err != nil {
			return err
		}
		if key == "minimum" {
			s.Minimum = &f
		} else {
			s.Maximum = &f
		}
	case "minLength", "maxLength", "minItems", "maxItems", "maxProperties":
		n, err := count()
		if err != nil {
			return err
		}
		switch key {
		case "minLength":
			s.MinLength = &n
		case "maxLength":
			s.MaxLength = &n
		case "minItems":
			s.MinItems = &n
		case "maxItems":
			s.MaxItems = &n
		case "maxProperties":
			s.MaxProperties = &n
		}
	case "enum":
		s.Enum = nil
		for v := range strings.SplitSeq(val, "|") {
			s.Enum = append(s.Enum, v)
		}
	case "pattern":
		s.Pattern = val
	case "format":
		if _, ok := formats[val]; !ok {
			return fmt.Errorf("format %q is not one the validator asserts", val)
		}
		s.Format = val
	case "contentEncoding":
		if val != "base64" {
			return fmt.Errorf("contentEncoding %q: only base64", val)
		}
		s.ContentEncoding = val
	case "type":
		s.Type, s.Types = val, nil
	case "default":
		if !json.Valid([]byte(val)) {
			val = strconv.Quote(val)
		}
		s.Default = json.RawMessage(val)
	default:
		return fmt.Errorf("unknown key %q", key)
	}
	return nil
}

// SchemaFor is the schema the registry infers for T, with its schema tags
// applied; faces use it for payloads that are not a tool's (GET /catalog).
func SchemaFor[T any]() (*jsonschema.Schema, error) { return payloadSchemaFor[T]() }

// ErrorSchema is the schema of the spec's error envelope, inferred from
// core.Envelope (the one type every face writes) with nextAction's values.
// The OpenAPI documents' Error schema is built from it, so the envelope is
// described once.
// Each call returns a new schema that the caller may change.
func ErrorSchema() *jsonschema.Schema {
	s, err := payloadSchemaFor[core.Envelope]()
	if err != nil {
		panic("tools: error envelope schema: " + err.Error())
	}
	var actions []any
	for _, a := range core.NextActions() {
		actions = append(actions, string(a))
	}
	s.Properties["nextAction"].Enum = actions
	return s
}
