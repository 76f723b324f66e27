package rest

import (
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/giftwell/giftwell/tools"
)

// withTextRule is a copy of s, a schema of what a request sends, whose
// strings carry tools.TextPattern (no NUL character, the rule every face
// applies) where they have no pattern, format, encoding or enum of their
// own.
func withTextRule(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	c := s.CloneSchemas()
	addTextRule(c)
	return c
}

func addTextRule(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	isString := s.Type == "string" || slices.Contains(s.Types, "string")
	if isString && s.Pattern == "" && s.Format == "" && s.ContentEncoding == "" && len(s.Enum) == 0 && s.Const == nil {
		s.Pattern = tools.TextPattern
	}
	for _, p := range s.Properties {
		addTextRule(p)
	}
	addTextRule(s.Items)
	addTextRule(s.AdditionalProperties)
	for _, list := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf, s.AllOf} {
		for _, sub := range list {
			addTextRule(sub)
		}
	}
}
