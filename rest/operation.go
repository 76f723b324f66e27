package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// operation is one REST route: the handler and the OpenAPI document are
// both built from the same list, which is the registry's tools with a
// Route, so that nothing is described twice.
type operation struct {
	// ID is the OpenAPI operationId: the tool's name.
	ID                   string
	Method, Path         string
	Summary, Description string
	// Status is the success status.
	Status int
	// Credentials says which credentials the route reads.
	Credentials tools.Credentials
	// Connections: sign-in connections may use the route.
	Connections bool
	// Input is the arguments' schema; Data the payload's schema inside
	// {data}; Out the payload's Go type, which names its OpenAPI components.
	Input *jsonschema.Schema
	Data  *jsonschema.Schema
	Out   reflect.Type
	// Produces is the success body's media type when it is a file (text/csv)
	// rather than the JSON {data} envelope; its schema is a string.
	Produces string
	// Raw, when set, is how the route reads a raw body (a file upload).
	Raw *tools.Raw
	// Retired: the route only answers 410 CAPABILITY_RETIRED.
	Retired bool
	// ReadOnly is the tool's readOnly hint: a failure of the database while
	// it runs is retry_later; otherwise the write may have landed, and it is
	// reread_and_retry (core.AfterWrite).
	ReadOnly bool
	// bind says where the arguments come from.
	bind binding
	// call runs the operation: the tool's Call, or its route's form's.
	call func(ctx context.Context, p core.Principal, args json.RawMessage) (any, error)
}

// operations lists the REST routes: every tool with a Route, in registry
// order. A route with a form of its own (Route.Form) serves the form's
// input, payload and Call. It returns an error when two routes share a
// method and path, or a route names a path parameter its input lacks:
// programming errors that the package's tests catch.
func operations(list []tools.Tool) ([]operation, error) {
	var ops []operation
	seen := map[string]string{}
	for i := range list {
		t := &list[i]
		if t.Route == nil {
			continue
		}
		r := t.Route
		status := r.Status
		if status == 0 {
			status = http.StatusOK
		}
		op := operation{
			ID:          t.Name,
			Method:      strings.ToUpper(r.Method),
			Path:        r.Path,
			Summary:     summary(t),
			Description: t.Description,
			Status:      status,
			Credentials: r.Credentials,
			Connections: r.Connections,
			Input:       t.InputSchema,
			Data:        t.DataSchema,
			Out:         t.Out,
			Produces:    r.Produces,
			Raw:         r.Raw,
			Retired:     r.Retired,
			ReadOnly:    t.Hints.ReadOnly,
			call:        t.Call,
		}
		if f := r.Form; f != nil {
			op.Input, op.Data, op.Out, op.call = f.InputSchema, f.DataSchema, f.Out, f.Call
			if f.Description != "" {
				op.Description = f.Description
			}
		}
		if op.Produces != "" {
			op.Data, op.Out = nil, nil // a file, not {data}
		}
		key := op.Method + " " + op.Path
		if other, dup := seen[key]; dup {
			return nil, fmt.Errorf("rest: %s and %s both route %s", other, op.ID, key)
		}
		seen[key] = op.ID
		b, err := newBinding(op.Method, op.Path, op.Input, r.Query, r.Body)
		if err != nil {
			return nil, fmt.Errorf("rest: %s: %w", op.ID, err)
		}
		op.bind = b
		ops = append(ops, op)
	}
	return ops, nil
}

// summary is the tool's title, or the first sentence of its description.
func summary(t *tools.Tool) string {
	if t.Title != "" {
		return t.Title
	}
	d := strings.TrimSpace(t.Description)
	if i := strings.Index(d, ". "); i >= 0 {
		d = d[:i]
	}
	d = strings.TrimSuffix(strings.SplitN(d, "\n", 2)[0], ".")
	if len(d) > 120 {
		d = d[:117] + "..."
	}
	return d
}

// handler serves an operation: merge path, query and body into the
// arguments, run the operation, write {data: out} with the route's status,
// or the file for a route that produces one. Every failure goes through
// the one translator, fail; an outage while an operation that may write ran
// is reread_and_retry (core.AfterWrite).
func (s *server) handler(op *operation) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		args, err := op.bind.args(r, bodyFrom(r.Context()))
		if err != nil {
			s.fail(w, r, err)
			return
		}
		out, err := op.call(r.Context(), principalFrom(r), args)
		if err != nil {
			if !op.ReadOnly {
				err = core.AfterWrite(err)
			}
			s.fail(w, r, err)
			return
		}
		if op.Produces != "" {
			s.download(w, r, op, out)
			return
		}
		s.respond(w, r, op.Status, out)
	}
}
