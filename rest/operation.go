package rest

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/giftwell/giftwell/tools"
)

// access says which credentials a route reads.
type access int

const (
	// accessPublic routes never read credentials.
	accessPublic access = iota
	// accessOptional routes read credentials when they are sent.
	accessOptional
	// accessRequired routes refuse a request without credentials.
	accessRequired
)

// operation is one REST route: the handler and the OpenAPI document are
// both built from the same list, so that nothing is described twice.
type operation struct {
	// ID is the OpenAPI operationId: the tool's name, or a name of the same
	// style for a route with no tool.
	ID                   string
	Method, Path         string
	Summary, Description string
	// Status is the success status.
	Status int
	Access access
	// Input is the arguments' schema (nil for none); Data the payload's
	// schema inside {data}; Out the payload's Go type, which names its
	// OpenAPI components.
	Input *jsonschema.Schema
	Data  *jsonschema.Schema
	Out   reflect.Type
	// Produces is the success body's media type when it is not the JSON
	// {data} envelope (text/csv for a CSV download); its schema is a string.
	Produces string
	// bind says where the arguments come from.
	bind binding
	// handle builds the route's handler.
	handle func(s *server, op *operation) http.HandlerFunc
	// tool is the registry entry behind the route; nil for the routes with no tool.
	tool *tools.Tool
}

// operations lists the REST routes: every tool with a Route, in registry
// order, then the routes with no tool. It returns an error when two routes
// share a method and path, or a route names a path parameter its tool's
// input lacks: programming errors that the package's tests catch.
func operations(list []tools.Tool) ([]operation, error) {
	var ops []operation
	for i := range list {
		t := &list[i]
		if t.Route == nil {
			continue
		}
		status := t.Route.Status
		if status == 0 {
			status = http.StatusOK
		}
		ops = append(ops, operation{
			ID:          t.Name,
			Method:      strings.ToUpper(t.Route.Method),
			Path:        t.Route.Path,
			Summary:     summary(t),
			Description: t.Description,
			Status:      status,
			Access:      accessRequired,
			Input:       t.InputSchema,
			Data:        t.DataSchema,
			Out:         t.Out,
			handle:      (*server).toolHandler,
			tool:        t,
		})
	}
	public, err := publicOperations()
	if err != nil {
		return nil, err
	}
	ops = append(ops, public...)
	campaign, err := campaignOperations()
	if err != nil {
		return nil, err
	}
	ops = append(ops, campaign...)
	balance, err := balanceOperations()
	if err != nil {
		return nil, err
	}
	ops = append(ops, balance...)
	queue, err := queueOperations()
	if err != nil {
		return nil, err
	}
	ops = append(ops, queue...)
	autoApprove, err := autoApproveOperations()
	if err != nil {
		return nil, err
	}
	ops = append(ops, autoApprove...)
	seen := map[string]string{}
	for i := range ops {
		op := &ops[i]
		key := op.Method + " " + op.Path
		if other, dup := seen[key]; dup {
			return nil, fmt.Errorf("rest: %s and %s both route %s", other, op.ID, key)
		}
		seen[key] = op.ID
		b, err := newBinding(op.Method, op.Path, op.Input)
		if err != nil {
			return nil, fmt.Errorf("rest: %s: %w", op.ID, err)
		}
		op.bind = b
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
