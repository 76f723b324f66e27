package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// binding says where an operation's arguments come from: path parameters
// always; the other input fields from the query (GET, DELETE, and a route
// marked tools.QueryParams) or from a JSON body (POST, PUT, PATCH).
type binding struct {
	// path lists the path parameters in template order.
	path []string
	// props are the input's properties by name.
	props map[string]*jsonschema.Schema
	// query: the fields that are not path parameters come from the query.
	query bool
	// body: the operation reads a JSON body. False for a body method whose
	// input has no field besides its path parameters: it reads none.
	body bool
}

// bodyMethods are the methods whose non-path fields travel in a JSON body.
func bodyMethod(method string) bool {
	return method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch
}

// newBinding derives the binding of a route from its method, path template
// and input schema. Every path parameter must be an input property. body
// makes a route of another method (a DELETE the spec gives a body, see
// tools.JSONBody) read its fields from a JSON body.
func newBinding(method, path string, input *jsonschema.Schema, query, body bool) (binding, error) {
	b := binding{props: map[string]*jsonschema.Schema{}}
	if input != nil {
		for name, s := range input.Properties {
			b.props[name] = s
		}
	}
	for seg := range strings.SplitSeq(path, "/") {
		if name, ok := strings.CutPrefix(seg, "{"); ok {
			name = strings.TrimSuffix(name, "}")
			if _, ok := b.props[name]; !ok {
				return binding{}, fmt.Errorf("path parameter %q is not an input field", name)
			}
			b.path = append(b.path, name)
		}
	}
	if (bodyMethod(method) || body) && !query {
		b.body = len(b.props) > len(b.path)
	} else {
		b.query = true
	}
	return b, nil
}

func (b binding) isPath(name string) bool { return slices.Contains(b.path, name) }

// fields lists the input fields that are not path parameters, in the
// input's property order.
func (b binding) fields(input *jsonschema.Schema) []string {
	var out []string
	for _, name := range propertyNames(input) {
		if !b.isPath(name) {
			out = append(out, name)
		}
	}
	return out
}

// args merges the request's path parameters, query and body into the
// arguments object a tool's Call takes.
func (b binding) args(r *http.Request, body map[string]any) (json.RawMessage, error) {
	path := make(map[string]string, len(b.path))
	for _, name := range b.path {
		v := chi.URLParam(r, name)
		if r.URL.RawPath != "" {
			// chi routed on the escaped path, so the value is still escaped.
			u, err := url.PathUnescape(v)
			if err != nil {
				return nil, core.Invalid(name, "is not a valid path segment")
			}
			v = u
		}
		path[name] = v
	}
	return b.merge(path, r.URL.RawQuery, body)
}

// merge builds the arguments from path values, a raw query and a decoded
// body. Query values are coerced to the types of the input's properties;
// every problem is one VALIDATION_ERROR naming each offending parameter.
// A path parameter holding a NUL or bytes that are not UTF-8 is 404
// NOT_FOUND; any other hostile text (tools.CheckText) is a VALIDATION_ERROR.
func (b binding) merge(path map[string]string, rawQuery string, body map[string]any) (json.RawMessage, error) {
	for _, name := range b.path {
		if tools.HostileText(path[name]) != "" {
			// No ID holds a NUL or bytes that are not UTF-8: nothing is there.
			return nil, core.Errorf(core.CodeNotFound, "%s: nothing has this ID; an ID never holds a NUL character or bytes that are not UTF-8", name)
		}
	}
	var p problems
	args := make(map[string]any, len(body)+len(path))
	for k, v := range body {
		args[k] = v
	}
	for _, name := range b.path {
		if _, ok := body[name]; ok {
			p.add(name, "is a path parameter; do not repeat it in the body")
			continue
		}
		v, msg := coerce(b.props[name], []string{path[name]})
		if msg != "" {
			p.add(name, msg)
			continue
		}
		args[name] = v
	}
	query, err := url.ParseQuery(rawQuery)
	if err != nil {
		p.add("query", "is not a valid query string")
	}
	names := make([]string, 0, len(query))
	for k := range query {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		_, known := b.props[k]
		switch {
		case k == "":
			p.add("query", "has a parameter without a name")
		case b.isPath(k):
			p.add(k, "is a path parameter; do not repeat it in the query")
		case !b.query && known:
			p.add(k, "is not a query parameter; send it in the JSON body")
		case !known:
			p.add(clip(k), "is not a known query parameter")
		default:
			v, msg := coerce(b.props[k], query[k])
			if msg != "" {
				p.add(k, msg)
				continue
			}
			args[k] = v
		}
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	// Query values are the bytes as sent, which json.Marshal would quietly
	// turn into U+FFFD: refuse hostile text here, naming the parameter.
	if err := tools.CheckText(args); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, core.Internal(err)
	}
	return raw, nil
}

// problems collects validation problems into one VALIDATION_ERROR whose
// message names every field, as the tools' validator does.
type problems struct {
	msgs   []string
	fields []string
}

func (p *problems) add(field, msg string) {
	p.msgs = append(p.msgs, field+": "+msg)
	p.fields = append(p.fields, field)
}

func (p *problems) err() error {
	if len(p.msgs) == 0 {
		return nil
	}
	return &core.Error{Code: core.CodeValidation, Message: strings.Join(p.msgs, "; "), Fields: p.fields}
}
