package rest

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/tools"
)

// The names of the security schemes in the documents: a workspace key, and
// the web app's session cookie.
const (
	bearerScheme = "bearerAuth"
	cookieScheme = "sessionCookie"
)

// buildDocument is the OpenAPI 3.1 document of ops.
func buildDocument(ops []operation, cfg core.Config) (*object, error) {
	c := newComponents()
	if err := c.addError(); err != nil {
		return nil, err
	}
	paths := obj()
	for i := range ops {
		op := &ops[i]
		o, err := c.operation(op)
		if err != nil {
			return nil, err
		}
		item, ok := paths.get(op.Path)
		if !ok {
			item = obj()
			paths.set(op.Path, item)
		}
		item.(*object).set(strings.ToLower(op.Method), o)
	}
	return obj(
		"openapi", "3.1.0",
		"info", obj(
			"title", "Giftwell API",
			"version", "1.0.0",
			"description", "The REST API of Giftwell, the B2B gifting service. Every operation is also an MCP tool of the same name. "+
				"Success bodies are {data: ...}; every error is the envelope {error, code, nextAction, url?, retryable, retryAfterMs?}. "+
				"Authenticate with a workspace key: Authorization: Bearer <key>. "+
				"The web app's pages call the same routes with the session cookie of a signed-in person instead.",
		),
		"servers", []any{obj("url", cfg.BaseURL(), "description", "Giftwell API v1")},
		"security", []any{obj(bearerScheme, []any{}), obj(cookieScheme, []any{})},
		"paths", paths,
		"webhooks", obj(),
		"components", obj(
			"schemas", c.schemas,
			"responses", c.responses,
			"securitySchemes", obj(bearerScheme, obj(
				"type", "http",
				"scheme", "bearer",
				"description", "A workspace key (gwk_ followed by 64 hex characters). It acts as the member who created it, with that member's current role.",
			), cookieScheme, obj(
				"type", "apiKey",
				"in", "cookie",
				"name", identity.SessionCookieName,
				"description", "The session of a person signed in to the web app. Used when no Authorization header is sent; "+
					"a request that changes something must also carry the site's Origin (or Sec-Fetch-Site: same-origin).",
			)),
		),
	), nil
}

// operation is the Operation Object of op.
func (c *components) operation(op *operation) (*object, error) {
	o := obj("operationId", op.ID, "summary", op.Summary)
	if op.Description != "" {
		o.set("description", op.Description)
	}
	o.set("tags", []any{tag(op.Path)})
	if op.Retired {
		o.set("deprecated", true)
	}
	switch op.Credentials {
	case tools.CredentialsNone:
		o.set("security", []any{})
	case tools.CredentialsOptional:
		o.set("security", []any{obj(), obj(bearerScheme, []any{}), obj(cookieScheme, []any{})})
	}
	params, err := parameters(op)
	if err != nil {
		return nil, err
	}
	if len(params) > 0 {
		o.set("parameters", params)
	}
	switch {
	case op.Raw != nil:
		o.set("requestBody", rawRequestBody(op.Raw))
	case op.bind.body:
		body, err := c.requestBody(op)
		if err != nil {
			return nil, err
		}
		o.set("requestBody", body)
	}
	var responses *object
	if op.Produces != "" {
		content := obj()
		for mt := range strings.SplitSeq(op.Produces, ",") {
			content.set(strings.TrimSpace(mt), obj("schema", obj("type", "string")))
		}
		responses = obj(strconv.Itoa(op.Status), obj(
			"description", "Success: a "+op.Produces+" file.",
			"content", content,
		))
	} else {
		resp, err := c.response(op)
		if err != nil {
			return nil, err
		}
		responses = obj(strconv.Itoa(op.Status), obj(
			"description", "Success: {data: ...}.",
			"content", obj("application/json", obj("schema", ref(resp))),
		))
	}
	for _, status := range errorStatuses(op) {
		responses.set(strconv.Itoa(status), ref(errorResponses[status].name, "responses"))
	}
	responses.set("default", ref("Error", "responses"))
	o.set("responses", responses)
	return o, nil
}

// tag groups an operation by its path's first segment.
func tag(path string) string {
	first, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	return first
}

// parameters are op's path parameters, then its query parameters.
func parameters(op *operation) ([]any, error) {
	var out []any
	add := func(name, in string, required bool) error {
		s := op.bind.props[name]
		if s != nil {
			s = withoutNull(s) // a parameter is text: never null
			if in == "query" {
				// A path ID with a NUL names nothing: 404, not a refusal of its shape.
				s = withTextRule(s)
			}
		}
		schema, err := ordered(s)
		if err != nil {
			return err
		}
		p := obj("name", name, "in", in)
		if s != nil && s.Description != "" {
			p.set("description", s.Description)
		}
		p.set("required", required)
		kinds := nonNullTypes(s)
		switch {
		case slices.Contains(kinds, "object"):
			p.set("content", obj("application/json", obj("schema", schema)))
		case slices.Contains(kinds, "array"):
			p.set("style", "form")
			p.set("explode", false)
			p.set("schema", schema)
		default:
			p.set("schema", schema)
		}
		out = append(out, p)
		return nil
	}
	for _, name := range op.bind.path {
		if err := add(name, "path", true); err != nil {
			return nil, err
		}
	}
	if op.Raw != nil {
		for _, h := range op.Raw.Headers {
			p := obj("name", h.Header, "in", "header")
			if h.Description != "" {
				p.set("description", h.Description)
			}
			p.set("required", h.Required)
			p.set("schema", obj("type", "string"))
			out = append(out, p)
		}
		return out, nil
	}
	if op.bind.query && op.Input != nil {
		for _, name := range op.bind.fields(op.Input) {
			if err := add(name, "query", slices.Contains(op.Input.Required, name)); err != nil {
				return nil, err
			}
		}
	}
	if takesIdempotencyKey(op) {
		out = append(out, obj("name", core.IdempotencyHeader, "in", "header", "required", false,
			"description", "makes a retry safe: the first answer is kept for 24 hours and replayed (Idempotent-Replayed: true) to a retry with the same key, method, path and body; the key with another request is 409 IDEMPOTENCY_CONFLICT",
			"schema", obj("type", "string", "minLength", core.MinIdempotencyKeyLength, "maxLength", core.MaxIdempotencyKeyLength)))
	}
	return out, nil
}

// errorStatuses are the error statuses op documents besides default.
func errorStatuses(op *operation) []int {
	out := []int{http.StatusBadRequest}
	if op.Credentials != tools.CredentialsNone {
		out = append(out, http.StatusUnauthorized)
	}
	out = append(out, http.StatusForbidden)
	if op.Credentials == tools.CredentialsRequired {
		out = append(out, http.StatusNotFound, http.StatusConflict)
	} else if takesIdempotencyKey(op) {
		out = append(out, http.StatusConflict) // IDEMPOTENCY_CONFLICT
	}
	if op.bind.body || refusesBody(op) {
		out = append(out, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType)
	}
	if op.Retired {
		out = append(out, http.StatusGone)
	}
	if op.Credentials == tools.CredentialsRequired {
		out = append(out, http.StatusTooManyRequests)
	}
	return append(out, http.StatusInternalServerError, http.StatusServiceUnavailable)
}

// ref is a Reference Object to a component (schemas unless kind says otherwise).
func ref(name string, kind ...string) *object {
	k := "schemas"
	if len(kind) > 0 {
		k = kind[0]
	}
	return obj("$ref", "#/components/"+k+"/"+name)
}

// rawRequestBody documents a raw body (tools.Raw): the file's bytes, of
// one of its media types.
func rawRequestBody(raw *tools.Raw) *object {
	content := obj()
	for _, mt := range raw.MediaTypes {
		content.set(mt, obj("schema", obj("type", "string", "format", "binary")))
	}
	return obj("required", true, "content", content)
}
