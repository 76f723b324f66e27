package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// components collects the documents' named schemas and responses. Success
// bodies are named as the spec names its envelopes: {data: Campaign} is
// CampaignResponse, {data: [Campaign]} CampaignListResponse; a payload with
// no Go type name is named after the operation (SearchGiftsResponse).
type components struct {
	schemas   *object
	responses *object
	// content holds each schema's JSON, to reuse identical schemas and to
	// rename a different one that wants a taken name.
	content map[string]string
}

func newComponents() *components {
	return &components{schemas: obj(), responses: obj(), content: map[string]string{}}
}

// add registers schema as name and returns the name used: name itself when
// it is free or holds an identical schema, otherwise fallback (numbered if
// that is taken too).
func (c *components) add(name string, schema any, fallback string) (string, error) {
	raw, err := json.Marshal(schema)
	if err != nil {
		return "", err
	}
	for i, candidate := 0, name; ; i++ {
		switch have, ok := c.content[candidate]; {
		case !ok:
			c.content[candidate] = string(raw)
			c.schemas.set(candidate, schema)
			return candidate, nil
		case have == string(raw):
			return candidate, nil
		}
		candidate = fallback
		if i > 0 {
			candidate = fmt.Sprintf("%s%d", fallback, i+1)
		}
	}
}

// response registers op's success body {data: payload} and returns its name.
func (c *components) response(op *operation) (string, error) {
	data, err := c.payload(op)
	if err != nil {
		return "", err
	}
	body := obj(
		"type", "object",
		"required", []any{"data"},
		"properties", obj("data", data),
		"additionalProperties", false,
	)
	fallback := camel(op.ID) + "Response"
	name := fallback
	if base := typeName(op.Out); base != "" {
		name = base + "Response"
	}
	return c.add(name, body, fallback)
}

// payload is the schema of op's data: a reference to a component named
// after the Go type where there is one (a named struct, or a list of them),
// the inline schema otherwise.
func (c *components) payload(op *operation) (any, error) {
	if op.Data == nil {
		return obj(), nil
	}
	t := deref(op.Out)
	switch {
	case t != nil && t.Kind() == reflect.Struct && t.Name() != "":
		name, err := c.addSchema(t.Name(), withoutNull(op.Data), camel(op.ID)+"Data")
		if err != nil {
			return nil, err
		}
		if nullable(op.Data) {
			return obj("anyOf", []any{ref(name), obj("type", "null")}), nil
		}
		return ref(name), nil
	case t != nil && t.Kind() == reflect.Slice && op.Data.Items != nil:
		elem := deref(t.Elem())
		if elem.Kind() != reflect.Struct || elem.Name() == "" {
			break
		}
		name, err := c.addSchema(elem.Name(), withoutNull(op.Data.Items), camel(op.ID)+"Item")
		if err != nil {
			return nil, err
		}
		list := *op.Data
		list.Items = nil
		node, err := ordered(&list)
		if err != nil {
			return nil, err
		}
		node.(*object).set("items", ref(name))
		return node, nil
	}
	return ordered(op.Data)
}

// addSchema registers a jsonschema.Schema.
func (c *components) addSchema(name string, s *jsonschema.Schema, fallback string) (string, error) {
	node, err := ordered(s)
	if err != nil {
		return "", err
	}
	return c.add(name, node, fallback)
}

// requestBody registers op's body schema (its input without the path
// parameters) and returns the Request Body Object.
func (c *components) requestBody(op *operation) (*object, error) {
	s := op.Input.CloneSchemas()
	for _, p := range op.bind.path {
		delete(s.Properties, p)
		s.Required = slices.DeleteFunc(slices.Clone(s.Required), func(r string) bool { return r == p })
		s.PropertyOrder = slices.DeleteFunc(slices.Clone(s.PropertyOrder), func(r string) bool { return r == p })
	}
	addTextRule(s)
	name := camel(op.ID) + "Request"
	name, err := c.addSchema(name, s, name)
	if err != nil {
		return nil, err
	}
	return obj(
		"required", len(s.Required) > 0,
		"content", obj("application/json", obj("schema", ref(name))),
	), nil
}

// errorResponse is a named error response of the documents.
type errorResponse struct {
	name, description string
	// headers are the response headers the error carries.
	headers []responseHeader
}

// responseHeader is one documented response header.
type responseHeader struct {
	name, description, typ string
}

// retryAfter is the Retry-After header of 429 and 503 answers.
var retryAfter = responseHeader{"Retry-After", "Seconds to wait, rounded up.", "integer"}

// rateLimitHeaders are the RateLimit headers every counted answer
// carries (core.RateCharge): the window's limit, what is left of it, and
// the seconds until it resets.
var rateLimitHeaders = []responseHeader{
	{"RateLimit-Limit", "Requests allowed per fixed clock minute of the database for this workspace (and route group: artwork reads and writes are counted apart).", "integer"},
	{"RateLimit-Remaining", "Requests left in the current minute.", "integer"},
	{"RateLimit-Reset", "Seconds until the current minute ends, rounded up.", "integer"},
}

// errorResponses are the documented error statuses, by status.
var errorResponses = map[int]errorResponse{
	http.StatusBadRequest:            {name: "BadRequest", description: "The request is not valid; error names each offending field or parameter."},
	http.StatusUnauthorized:          {name: "Unauthorized", description: "The key or connection is missing, revoked or expired, or not accepted on this route.", headers: []responseHeader{{"WWW-Authenticate", "Bearer", "string"}}},
	http.StatusGone:                  {name: "Gone", description: "The capability is retired (CAPABILITY_RETIRED): the route is kept only to say so; see the error's message for what to do instead."},
	http.StatusForbidden:             {name: "Forbidden", description: "The caller may not do this, or a browser Origin is not the site's."},
	http.StatusNotFound:              {name: "NotFound", description: "The ID is not in this workspace, or there is no such route."},
	http.StatusConflict:              {name: "Conflict", description: "The request conflicts with the current state."},
	http.StatusRequestEntityTooLarge: {name: "RequestTooLarge", description: "The body is over 1 MiB (1,048,576 bytes)."},
	http.StatusUnsupportedMediaType:  {name: "UnsupportedMediaType", description: "The body must be sent as application/json."},
	http.StatusTooManyRequests:       {name: "TooManyRequests", description: "Over the limit; wait retryAfterMs, then send the same request.", headers: append([]responseHeader{retryAfter}, rateLimitHeaders...)},
	http.StatusInternalServerError:   {name: "InternalError", description: "Unexpected. After a write, read current state before anything else."},
	http.StatusServiceUnavailable:    {name: "ServiceUnavailable", description: "The database or a service Giftwell depends on is briefly unavailable. A read is retry_later: wait retryAfterMs, then send it again. After a write it is reread_and_retry: the write may have landed, so read current state first.", headers: []responseHeader{retryAfter}},
}

// addError registers the Error schema (core's envelope, as the registry
// describes it, with the wire codes listed) and the error responses.
func (c *components) addError() error {
	s := tools.ErrorSchema()
	var codes []any
	for _, code := range core.Codes() {
		if w := code.Wire(); !slices.Contains(codes, any(w)) {
			codes = append(codes, w)
		}
	}
	s.Properties["code"].Enum = codes
	s.Description = "The error envelope of every non-2xx response."
	if _, err := c.addSchema("Error", s, "Error"); err != nil {
		return err
	}
	statuses := make([]int, 0, len(errorResponses))
	for status := range errorResponses {
		statuses = append(statuses, status)
	}
	slices.Sort(statuses)
	for _, status := range statuses {
		e := errorResponses[status]
		r := obj("description", e.description+codesWith(status))
		if len(e.headers) > 0 {
			hs := obj()
			for _, h := range e.headers {
				hs.set(h.name, obj("description", h.description, "schema", obj("type", h.typ)))
			}
			r.set("headers", hs)
		}
		r.set("content", obj("application/json", obj("schema", ref("Error"))))
		c.responses.set(e.name, r)
	}
	c.responses.set("Error", obj(
		"description", "Any error: the envelope.",
		"content", obj("application/json", obj("schema", ref("Error"))),
	))
	return nil
}

// codesWith lists the wire codes of the table that have status.
func codesWith(status int) string {
	var codes []string
	for _, code := range core.Codes() {
		if code.Info().Status == status && !slices.Contains(codes, code.Wire()) {
			codes = append(codes, code.Wire())
		}
	}
	if len(codes) == 0 {
		return ""
	}
	return " Codes: " + strings.Join(codes, ", ") + "."
}

// typeName names a payload type for its response component: Campaign for
// Campaign or *Campaign, CampaignList for []Campaign; "" for anything else.
func typeName(t reflect.Type) string {
	t = deref(t)
	switch {
	case t == nil:
		return ""
	case t.Kind() == reflect.Struct && t.Name() != "":
		return t.Name()
	case t.Kind() == reflect.Slice:
		if e := deref(t.Elem()); e.Kind() == reflect.Struct && e.Name() != "" {
			return e.Name() + "List"
		}
	}
	return ""
}

func deref(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// nullable reports whether the schema admits null.
func nullable(s *jsonschema.Schema) bool { return slices.Contains(s.Types, "null") }

// withoutNull is s without null among its types.
func withoutNull(s *jsonschema.Schema) *jsonschema.Schema {
	if !nullable(s) {
		return s
	}
	c := *s
	c.Types = nonNullTypes(s)
	if len(c.Types) == 1 {
		c.Type, c.Types = c.Types[0], nil
	}
	return &c
}

// camel turns a snake_case operation ID into CamelCase.
func camel(id string) string {
	var b strings.Builder
	for part := range strings.SplitSeq(id, "_") {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}
