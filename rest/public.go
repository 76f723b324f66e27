package rest

import (
	"fmt"
	"net/http"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// publicOperations are the routes that have no tool: the public catalog,
// the session and the reachable workspaces.
func publicOperations() ([]operation, error) {
	catalog, err := payloadSchema[[]core.Product]()
	if err != nil {
		return nil, fmt.Errorf("rest: catalog schema: %w", err)
	}
	session, err := payloadSchema[*core.Session]()
	if err != nil {
		return nil, fmt.Errorf("rest: session schema: %w", err)
	}
	workspaces, err := payloadSchema[[]core.WorkspaceSummary]()
	if err != nil {
		return nil, fmt.Errorf("rest: workspaces schema: %w", err)
	}
	return []operation{
		{
			ID:      "get_catalog",
			Method:  http.MethodGet,
			Path:    "/catalog",
			Summary: "The public gift catalog",
			Description: "Every product of the catalog, retired ones included (retired: true; never choose one for a new campaign). " +
				"Public: no credentials, not rate limited. It proves nothing about a key; to choose a gift, use search_gifts (GET /catalog/search).",
			Status: http.StatusOK,
			Access: accessPublic,
			Data:   catalog,
			Out:    reflect.TypeFor[[]core.Product](),
			handle: (*server).catalogHandler,
		},
		{
			ID:      "get_session",
			Method:  http.MethodGet,
			Path:    "/session",
			Summary: "Who the credentials belong to",
			Description: "The session of the caller: the user, their current role and the workspace. " +
				"Credentials are optional: without them data is null. Not rate limited.",
			Status: http.StatusOK,
			Access: accessOptional,
			Data:   session,
			Out:    reflect.TypeFor[*core.Session](),
			handle: (*server).sessionHandler,
		},
		{
			ID:      "list_workspaces",
			Method:  http.MethodGet,
			Path:    "/workspaces",
			Summary: "The workspaces the caller can reach",
			Description: "The workspaces the credentials reach, each with its mode, whether it is a demo and the caller's role. " +
				"A signed-in person sees every workspace they belong to; a key sees only its own.",
			Status: http.StatusOK,
			Access: accessRequired,
			Data:   workspaces,
			Out:    reflect.TypeFor[[]core.WorkspaceSummary](),
			handle: (*server).workspacesHandler,
		},
	}, nil
}

// payloadSchema infers T's schema exactly as the registry infers a tool's
// output, so that a type shared with a tool (core.Product) has one schema in
// the documents.
func payloadSchema[T any]() (*jsonschema.Schema, error) { return tools.SchemaFor[T]() }

// catalogHandler serves GET /catalog.
func (s *server) catalogHandler(op *operation) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if _, err := op.bind.args(r, nil); err != nil {
			s.fail(w, r, err)
			return
		}
		products, err := s.app.PublicCatalog(r.Context())
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if products == nil {
			products = []core.Product{}
		}
		s.respond(w, r, op.Status, products)
	}
}

// sessionHandler serves GET /session: {data: null} without credentials.
func (s *server) sessionHandler(op *operation) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if _, err := op.bind.args(r, nil); err != nil {
			s.fail(w, r, err)
			return
		}
		session, err := s.app.Session(r.Context(), principalFrom(r))
		if err != nil {
			s.fail(w, r, err)
			return
		}
		s.respond(w, r, op.Status, session)
	}
}

// workspacesHandler serves GET /workspaces.
func (s *server) workspacesHandler(op *operation) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if _, err := op.bind.args(r, nil); err != nil {
			s.fail(w, r, err)
			return
		}
		list, err := s.app.ListWorkspaces(r.Context(), principalFrom(r))
		if err != nil {
			s.fail(w, r, err)
			return
		}
		s.respond(w, r, op.Status, list)
	}
}
