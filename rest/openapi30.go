package rest

import (
	"encoding/json"
	"strings"
)

// downgrade turns a decoded OpenAPI 3.1 document into its OpenAPI 3.0.3
// equivalent, in place:
//
//   - openapi is 3.0.3; webhooks move to the x-webhooks extension;
//     jsonSchemaDialect, info.summary and license.identifier (3.1 only) go.
//   - In every schema: type [X, "null"] becomes type X with nullable: true
//     (several non-null types become anyOf); {type: "null"} members of anyOf
//     or oneOf become nullable: true on the parent; const becomes a one-value
//     enum; examples becomes example (its first item); contentEncoding
//     base64 becomes format byte; numeric
//     exclusiveMinimum/exclusiveMaximum become minimum/maximum with the 3.0
//     boolean; boolean schemas become {} and {not: {}} (except as
//     additionalProperties, where 3.0 accepts them); keywords 3.0 lacks
//     (prefixItems, if/then/else, $defs, patternProperties, ...) are dropped.
func downgrade(doc *object) *object {
	doc.set("openapi", "3.0.3")
	doc.del("jsonSchemaDialect")
	if info, ok := doc.get("info"); ok {
		if info, ok := info.(*object); ok {
			info.del("summary")
			if lic, ok := info.get("license"); ok {
				if lic, ok := lic.(*object); ok {
					lic.del("identifier")
				}
			}
		}
	}
	doc.rename("webhooks", "x-webhooks")
	walkDocument(doc, "")
	return doc
}

// walkDocument finds the schemas in the non-schema parts of the document:
// every value under a "schema" key and every entry of components.schemas.
func walkDocument(node any, parent string) {
	switch n := node.(type) {
	case *object:
		for _, k := range n.keys {
			v := n.vals[k]
			switch {
			case k == "schema":
				n.vals[k] = schema30(v)
			case k == "schemas" && parent == "components":
				if schemas, ok := v.(*object); ok {
					for _, name := range schemas.keys {
						schemas.vals[name] = schema30(schemas.vals[name])
					}
				}
			default:
				walkDocument(v, k)
			}
		}
	case []any:
		for _, v := range n {
			walkDocument(v, parent)
		}
	}
}

// keywords30 are the keywords of an OpenAPI 3.0 Schema Object.
var keywords30 = map[string]bool{
	"title": true, "multipleOf": true, "maximum": true, "exclusiveMaximum": true, "minimum": true,
	"exclusiveMinimum": true, "maxLength": true, "minLength": true, "pattern": true, "maxItems": true,
	"minItems": true, "uniqueItems": true, "maxProperties": true, "minProperties": true, "required": true,
	"enum": true, "type": true, "allOf": true, "oneOf": true, "anyOf": true, "not": true, "items": true,
	"properties": true, "additionalProperties": true, "description": true, "format": true, "default": true,
	"nullable": true, "discriminator": true, "readOnly": true, "writeOnly": true, "xml": true,
	"externalDocs": true, "example": true, "deprecated": true, "$ref": true,
}

// schema30 converts one JSON Schema 2020-12 schema to an OpenAPI 3.0 one.
func schema30(v any) any {
	switch s := v.(type) {
	case bool:
		if s {
			return obj()
		}
		return obj("not", obj())
	case *object:
		convertSchema30(s)
		return s
	}
	return v
}

func convertSchema30(s *object) {
	if t, ok := s.get("type"); ok {
		if types, ok := t.([]any); ok {
			convertTypes(s, types)
		} else if t == "null" {
			s.del("type")
			s.set("nullable", true)
			s.set("enum", []any{nil})
		}
	}
	if c, ok := s.get("const"); ok {
		s.del("const")
		if _, has := s.get("enum"); !has {
			s.set("enum", []any{c})
		}
	}
	if ex, ok := s.get("examples"); ok {
		s.del("examples")
		if list, ok := ex.([]any); ok && len(list) > 0 {
			if _, has := s.get("example"); !has {
				s.set("example", list[0])
			}
		}
	}
	if enc, ok := s.get("contentEncoding"); ok && enc == "base64" {
		if _, has := s.get("format"); !has {
			s.set("format", "byte")
		}
	}
	exclusiveBound(s, "exclusiveMinimum", "minimum")
	exclusiveBound(s, "exclusiveMaximum", "maximum")
	for _, k := range []string{"anyOf", "oneOf"} {
		dropNullMembers(s, k)
	}
	if req, ok := s.get("required"); ok {
		if list, ok := req.([]any); ok && len(list) == 0 {
			s.del("required")
		}
	}
	for _, k := range append([]string(nil), s.keys...) {
		if !keywords30[k] && !strings.HasPrefix(k, "x-") {
			s.del(k)
		}
	}
	// Sub-schemas.
	if props, ok := s.get("properties"); ok {
		if props, ok := props.(*object); ok {
			for _, name := range props.keys {
				props.vals[name] = schema30(props.vals[name])
			}
		}
	}
	if items, ok := s.get("items"); ok {
		s.set("items", schema30(items))
	}
	if ap, ok := s.get("additionalProperties"); ok {
		if _, isBool := ap.(bool); !isBool {
			s.set("additionalProperties", schema30(ap))
		}
	}
	if not, ok := s.get("not"); ok {
		s.set("not", schema30(not))
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if list, ok := s.get(k); ok {
			if list, ok := list.([]any); ok {
				for i := range list {
					list[i] = schema30(list[i])
				}
			}
		}
	}
}

// convertTypes rewrites a type array: one non-null type stays the type,
// several become anyOf; null among them becomes nullable.
func convertTypes(s *object, types []any) {
	var kinds []any
	null := false
	for _, t := range types {
		if t == "null" {
			null = true
		} else {
			kinds = append(kinds, t)
		}
	}
	switch len(kinds) {
	case 0:
		s.del("type")
		s.set("enum", []any{nil})
	case 1:
		s.set("type", kinds[0])
	default:
		s.del("type")
		var anyOf []any
		for _, k := range kinds {
			anyOf = append(anyOf, obj("type", k))
		}
		s.set("anyOf", anyOf)
	}
	if null {
		s.set("nullable", true)
	}
}

// exclusiveBound turns a numeric 2020-12 exclusive bound into the 3.0 form.
func exclusiveBound(s *object, exclusive, bound string) {
	v, ok := s.get(exclusive)
	if !ok {
		return
	}
	if n, ok := v.(json.Number); ok {
		s.set(bound, n)
		s.set(exclusive, true)
	}
}

// dropNullMembers removes {type: "null"} from anyOf or oneOf and marks the
// schema nullable instead.
func dropNullMembers(s *object, key string) {
	v, ok := s.get(key)
	if !ok {
		return
	}
	list, ok := v.([]any)
	if !ok {
		return
	}
	var kept []any
	for _, m := range list {
		if o, ok := m.(*object); ok && len(o.keys) == 1 && o.vals["type"] == "null" {
			s.set("nullable", true)
			continue
		}
		kept = append(kept, m)
	}
	if len(kept) == 0 {
		s.del(key)
		return
	}
	s.set(key, kept)
}
