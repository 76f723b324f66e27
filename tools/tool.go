// Package tools is the registry: every operation of Giftwell is a Tool, a
// value pairing a descriptor (name, description, scope, profiles, hints, REST
// binding, schemas) with a typed handler. MCP tool lists, REST routes, the
// OpenAPI documents and the tool reference are all derived from All.
package tools

import (
	"context"
	"encoding/json"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/giftwell/giftwell/core"
)

// Scope is a tool's access class, as in TOOLS.md: the OAuth scope it needs
// (read, write, links), the full key list only (dash), or a signed-in person
// only (signed-in).
type Scope string

// The tool scopes.
const (
	ScopeRead     Scope = "read"
	ScopeWrite    Scope = "write"
	ScopeLinks    Scope = "links"
	ScopeDash     Scope = "dash"
	ScopeSignedIn Scope = "signed-in"
)

// OAuth returns the OAuth scope a connection needs for a tool of this scope,
// or "" when connections never see it.
func (s Scope) OAuth() core.Scope {
	switch s {
	case ScopeRead:
		return core.ScopeRead
	case ScopeWrite:
		return core.ScopeWrite
	case ScopeLinks:
		return core.ScopeLinks
	}
	return ""
}

// Profile is a tool list served at one MCP mount.
type Profile string

// The profiles.
const (
	// ProfileFull is /mcp with a key: every tool but the signed-in ones.
	ProfileFull Profile = "full"
	// ProfileGifting is /mcp?profile=gifting and OAuth connections: the scoped tools.
	ProfileGifting Profile = "gifting"
	// ProfileChatGPT is /chatgpt/mcp: its own twelve tools.
	ProfileChatGPT Profile = "chatgpt"
)

// Profiles lists every profile.
var Profiles = []Profile{ProfileFull, ProfileGifting, ProfileChatGPT}

// Hints are the MCP tool annotations.
type Hints struct {
	ReadOnly    bool
	Destructive bool
	Idempotent  bool
	OpenWorld   bool
}

// Route is a tool's REST binding. Path is relative to /api/v1 and uses
// {name} for path parameters, which are merged into the arguments.
type Route struct {
	Method string
	Path   string
	// Status is the success status (200 unless stated).
	Status int
}

// Tool is one operation of the registry.
type Tool struct {
	Name        string
	Title       string
	Description string
	Scope       Scope
	// Action is the row of the role matrix the tool performs; core.Authorize
	// decides it before the handler runs.
	Action core.Action
	// ChatGPT marks the twelve tools of the assistant endpoint.
	ChatGPT bool
	Hints   Hints
	// Route is the REST binding; nil means MCP only.
	Route *Route
	// InputSchema describes the arguments; OutputSchema describes {data: Out}.
	InputSchema  *jsonschema.Schema
	OutputSchema *jsonschema.Schema
	// DataSchema describes Out itself (the payload inside {data}).
	DataSchema *jsonschema.Schema
	// In and Out are the Go types of the arguments and the payload.
	In, Out reflect.Type
	// PersonURL gives the page a person opens when only a signed-in person
	// may do what the caller asked (HUMAN_APPROVAL_REQUIRED's url); nil means
	// the site's home page, which the face fills in.
	PersonURL func(args json.RawMessage) string
	// Call authorizes p, validates and decodes args strictly, and runs the
	// handler. Errors are *core.Error (anything else is an internal error).
	Call func(ctx context.Context, p core.Principal, args json.RawMessage) (any, error)
}

// InProfile reports whether the tool is listed in profile pr.
func (t Tool) InProfile(pr Profile) bool {
	switch pr {
	case ProfileFull:
		return t.Scope != ScopeSignedIn
	case ProfileGifting:
		return t.Scope.OAuth() != ""
	case ProfileChatGPT:
		return t.ChatGPT
	}
	return false
}

// Visible reports whether p sees the tool in profile pr: a connection sees
// only the tools its granted scopes cover.
func (t Tool) Visible(pr Profile, p core.Principal) bool {
	if !t.InProfile(pr) {
		return false
	}
	if p.Via == core.ViaConnection {
		s := t.Scope.OAuth()
		return s != "" && p.HasScope(s)
	}
	return true
}

// Option adjusts a tool as Define builds it.
type Option func(*Tool)

// Title sets the human title shown by clients.
func Title(s string) Option { return func(t *Tool) { t.Title = s } }

// ChatGPT puts the tool in the assistant endpoint's list.
func ChatGPT() Option { return func(t *Tool) { t.ChatGPT = true } }

// ReadOnly marks a tool that changes nothing (also idempotent).
func ReadOnly() Option {
	return func(t *Tool) { t.Hints.ReadOnly, t.Hints.Idempotent = true, true }
}

// Destructive marks a tool that may remove or overwrite data.
func Destructive() Option { return func(t *Tool) { t.Hints.Destructive = true } }

// Idempotent marks a tool whose repeat with the same arguments changes nothing more.
func Idempotent() Option { return func(t *Tool) { t.Hints.Idempotent = true } }

// OpenWorld marks a tool that reaches outside Giftwell (payments, the web).
func OpenWorld() Option { return func(t *Tool) { t.Hints.OpenWorld = true } }

// REST binds the tool to a REST route under /api/v1.
func REST(method, path string, status int) Option {
	return func(t *Tool) { t.Route = &Route{Method: method, Path: path, Status: status} }
}

// PersonURL sets the url handed to a person when a key or connection calls
// a tool only a signed-in person may use.
func PersonURL(f func(args json.RawMessage) string) Option {
	return func(t *Tool) { t.PersonURL = f }
}

// Handler is a typed tool handler.
type Handler[In, Out any] func(ctx context.Context, p core.Principal, in In) (Out, error)

// Define builds a Tool from a typed handler. The input schema comes from In
// (json, jsonschema and schema struct tags; see schemaFor), the output schema
// from Out wrapped as {data: Out}. It panics on a type the schema inference
// cannot describe: a programming error found by the registry's tests.
func Define[In, Out any](name, description string, scope Scope, action core.Action, h Handler[In, Out], opts ...Option) Tool {
	in, err := schemaFor[In]()
	if err != nil {
		panic("tools: " + name + ": input schema: " + err.Error())
	}
	data, err := schemaFor[Out]()
	if err != nil {
		panic("tools: " + name + ": output schema: " + err.Error())
	}
	t := Tool{
		Name:         name,
		Description:  description,
		Scope:        scope,
		Action:       action,
		InputSchema:  in,
		DataSchema:   data,
		OutputSchema: envelopeSchema(data),
		In:           reflect.TypeFor[In](),
		Out:          reflect.TypeFor[Out](),
	}
	for _, o := range opts {
		o(&t)
	}
	resolved := mustResolve(name, in)
	personURL := t.PersonURL
	t.Call = func(ctx context.Context, p core.Principal, args json.RawMessage) (any, error) {
		if err := core.Authorize(p, action, ""); err != nil {
			if e := core.AsError(err); e.Code == core.CodeHumanApprovalRequired && personURL != nil {
				e.URL = personURL(args)
			}
			return nil, err
		}
		var v In
		if err := decodeArgs(resolved, args, &v); err != nil {
			return nil, err
		}
		return h(ctx, p, v)
	}
	return t
}
