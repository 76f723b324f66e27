package rest

import (
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// nonNullTypes is the schema's type list without "null"; empty for a nil
// schema or one without a type.
func nonNullTypes(s *jsonschema.Schema) []string {
	if s == nil {
		return nil
	}
	var kinds []string
	if s.Type != "" {
		kinds = []string{s.Type}
	} else {
		kinds = slices.Clone(s.Types)
	}
	return slices.DeleteFunc(kinds, func(k string) bool { return k == "null" })
}

// propertyNames lists an object schema's properties: those of
// PropertyOrder first, in that order (the Go field order), then the rest
// sorted.
func propertyNames(s *jsonschema.Schema) []string {
	if s == nil {
		return nil
	}
	var out []string
	for _, name := range s.PropertyOrder {
		if _, ok := s.Properties[name]; ok && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	var rest []string
	for name := range s.Properties {
		if !slices.Contains(out, name) {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}
