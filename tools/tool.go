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

// Credentials says which credentials a REST route reads.
type Credentials string

// The credentials a route reads.
const (
	// CredentialsRequired routes refuse a request without credentials
	// (401 AUTH_REQUIRED). The default.
	CredentialsRequired Credentials = ""
	// CredentialsOptional routes read credentials when they are sent and
	// serve a caller without them too (GET /session).
	CredentialsOptional Credentials = "optional"
	// CredentialsNone routes are public: they never read credentials
	// (GET /catalog).
	CredentialsNone Credentials = "none"
)

// Route is a tool's REST binding. Path is relative to /api/v1 and uses
// {name} for path parameters, which are merged into the arguments. Beyond
// method, path and status, everything the REST face needs to serve a route
// is here, so that no route needs handler code of its own.
type Route struct {
	Method string
	Path   string
	// Status is the success status (200 unless stated).
	Status int
	// Credentials says which credentials the route reads; required unless
	// stated. Only a REST-only tool may read fewer (TestToolMetadata).
	Credentials Credentials `json:",omitempty"`
	// Connections marks a route a sign-in connection (an OAuth access token)
	// may use: the gift-link distribution routes (Authentication §3).
	// Everywhere else core.Config.AuthorizeRESTRoute refuses connections.
	Connections bool `json:",omitempty"`
	// Query puts the fields that are not path parameters in the query
	// string even on a POST (POST /webhooks/{id}/deliveries/{deliveryId}/retry?source=);
	// the route then reads no body.
	Query bool `json:",omitempty"`
	// Body puts the fields that are not path parameters in a JSON body on
	// a method that has none otherwise: a DELETE the spec gives a body
	// (remove_recipient_source_columns: {importId, indices}).
	Body bool `json:",omitempty"`
	// Produces is the success body's media type when the route answers with
	// a file (text/csv) instead of {data}; the tool's payload is then a File.
	Produces string `json:",omitempty"`
	// Raw, when set, makes the route read the request body as raw bytes
	// (a file upload) instead of JSON; see RawBody.
	Raw *Raw `json:",omitempty"`
	// Retired marks a route the service keeps only to answer 410
	// CAPABILITY_RETIRED: documented deprecated, with its 410.
	Retired bool `json:",omitempty"`
	// Form is the route's own form of the tool, when REST serves the same
	// operation with another input and payload (list_queue: unpaged on
	// REST); nil means the tool itself. RESTForm sets it.
	Form *Form `json:"-"`

	// form builds Form once Define knows the tool (its name, action and
	// person url).
	form func(t *Tool) *Form
}

// Form is a route's own form of its tool (see RESTForm): the same operation
// and authorization with the input and payload the REST face serves.
type Form struct {
	// Description replaces the tool's in the REST documents when not empty.
	Description string
	// InputSchema describes the route's arguments; DataSchema its payload,
	// inside {data}.
	InputSchema, DataSchema *jsonschema.Schema
	// In and Out are the Go types of the arguments and the payload.
	In, Out reflect.Type
	// Call is the form's Tool.Call.
	Call func(ctx context.Context, p core.Principal, args json.RawMessage) (any, error)
}

// Raw says how a route reads a raw request body (POST /artwork's file):
// at most MaxBytes of one of MediaTypes, handed to the route's input as
// arguments: the body base64-encoded in BodyField, the Content-Type's
// media type in MediaTypeField (unchecked: the tool decides), and each
// header of Headers in its field.
type Raw struct {
	MediaTypes     []string
	MaxBytes       int64
	BodyField      string
	MediaTypeField string
	Headers        []RawHeader
}

// RawHeader maps a request header to an input field.
type RawHeader struct {
	Header, Field, Description string
	Required                   bool
}

// File is the payload of a tool whose route Produces a file instead of
// {data}: the REST face answers with Body, of the route's media type, as
// an attachment named Name. As JSON it is Body as a string.
type File struct {
	// Name is the attachment's filename.
	Name string
	// Body is the file's content.
	Body []byte
	// Type, when set, is the file's media type, one of those the route
	// Produces (a route may produce several, comma-separated).
	Type string
	// Inline shows the file in the browser instead of as an attachment
	// (an image preview); it is still served under a strict
	// Content-Security-Policy and nosniff.
	Inline bool
}

// MarshalJSON writes the file's content as a JSON string, as its schema says.
func (f File) MarshalJSON() ([]byte, error) { return json.Marshal(string(f.Body)) }

var _ json.Marshaler = File{}

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
	// RESTOnly marks an operation with no MCP profile: no MCP list shows it
	// and MCP never registers it; only its REST route serves it (TOOLS.md's
	// "REST routes with no tool of their own"). It still has a snapshot, an
	// OpenAPI operation and a section in docs/tools.md.
	RESTOnly bool
	Hints    Hints
	// Route is the REST binding; nil means MCP only.
	Route *Route
	// InputSchema describes the arguments. MCP lists no output schema
	// (tools/listing.go): a result's structuredContent is {data: Out} or
	// the error envelope, as the workflow guide says.
	InputSchema *jsonschema.Schema
	// ListedInputSchema is the input schema MCP lists: InputSchema, or a
	// compact projection of it (FieldsAs). Arguments are still validated
	// against InputSchema.
	ListedInputSchema *jsonschema.Schema
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

	// listedFields are the FieldsAs options.
	listedFields []ListedFields
	// describedBy and describedKeep are the DescribedBy option.
	describedBy   string
	describedKeep []string
}

// InProfile reports whether the tool is listed in profile pr. A REST-only
// tool is in none.
func (t Tool) InProfile(pr Profile) bool {
	if t.RESTOnly {
		return false
	}
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

// AnyFields makes the input accept fields it does not name, which are not
// read: for a retired route, which answers whatever it is sent the same way.
func AnyFields() Option { return func(t *Tool) { t.InputSchema.AdditionalProperties = nil } }

// RESTOnly gives the tool no MCP profile: only its REST route serves it.
func RESTOnly() Option { return func(t *Tool) { t.RESTOnly = true } }

// RouteOption adjusts a route as REST builds it.
type RouteOption func(*Route)

// REST binds the tool to a REST route under /api/v1.
func REST(method, path string, status int, opts ...RouteOption) Option {
	return func(t *Tool) {
		r := &Route{Method: method, Path: path, Status: status}
		for _, o := range opts {
			o(r)
		}
		t.Route = r
	}
}

// Public makes the route public: it never reads credentials, and the tool
// is not authorized before it runs (its core method needs no principal).
func Public() RouteOption { return func(r *Route) { r.Credentials = CredentialsNone } }

// OptionalCredentials makes the route read credentials only when they are
// sent; the tool is not authorized before it runs, so its core method
// decides what an anonymous caller gets.
func OptionalCredentials() RouteOption {
	return func(r *Route) { r.Credentials = CredentialsOptional }
}

// RetiredRoute marks a route kept only to answer 410 CAPABILITY_RETIRED
// (Route.Retired).
func RetiredRoute() RouteOption { return func(r *Route) { r.Retired = true } }

// Connections lets sign-in connections use the route: only the gift-link
// distribution routes may (Authentication §3).
func Connections() RouteOption { return func(r *Route) { r.Connections = true } }

// QueryParams makes a body method's route take its fields from the query
// string, as the spec writes the route, and read no body.
func QueryParams() RouteOption { return func(r *Route) { r.Query = true } }

// JSONBody makes a DELETE route read its fields from a JSON body, where
// the spec gives it one, instead of the query string.
func JSONBody() RouteOption { return func(r *Route) { r.Body = true } }

// Produces makes the route answer with a file of mediaType (text/csv)
// instead of {data}; the tool's payload must be a File. Several media
// types are comma-separated; the File's Type says which one it is.
func Produces(mediaType string) RouteOption { return func(r *Route) { r.Produces = mediaType } }

// RawBody makes a body method's route read its body as raw bytes
// (see Raw) instead of JSON.
func RawBody(raw Raw) RouteOption { return func(r *Route) { r.Raw = &raw } }

// RESTForm gives the route its own form of the tool: another typed handler
// for the same operation, whose input and payload REST serves instead of
// the tool's (list_queue's route returns the items of every page, unpaged).
// It is authorized as the tool is. description, when not empty, replaces
// the tool's in the REST documents.
func RESTForm[In, Out any](description string, h Handler[In, Out]) RouteOption {
	return func(r *Route) {
		r.form = func(t *Tool) *Form {
			in, data := schemas[In, Out](t.Name + " (REST form)")
			return &Form{
				Description: description,
				InputSchema: in,
				DataSchema:  data,
				In:          reflect.TypeFor[In](),
				Out:         reflect.TypeFor[Out](),
				Call:        caller(t, newValidator(t.Name+" (REST form)", in), h),
			}
		}
	}
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
// from Out wrapped as {data: Out} (a File is a string of the route's media
// type). It panics on a type the schema inference cannot describe: a
// programming error found by the registry's tests.
func Define[In, Out any](name, description string, scope Scope, action core.Action, h Handler[In, Out], opts ...Option) Tool {
	in, data := schemas[In, Out](name)
	t := Tool{
		Name:        name,
		Description: description,
		Scope:       scope,
		Action:      action,
		InputSchema: in,
		DataSchema:  data,
		In:          reflect.TypeFor[In](),
		Out:         reflect.TypeFor[Out](),
	}
	for _, o := range opts {
		o(&t)
	}
	if t.Out == reflect.TypeFor[File]() && t.Route != nil {
		t.DataSchema.ContentMediaType = t.Route.Produces
	}
	listed, err := listedInput(&t)
	if err != nil {
		panic("tools: " + name + ": " + err.Error())
	}
	t.ListedInputSchema = listed
	t.Call = caller(&t, newValidator(name, in), h)
	if t.Route != nil && t.Route.form != nil {
		t.Route.Form = t.Route.form(&t)
	}
	return t
}

// schemas infers the input and payload schemas of a handler. A File
// payload is a string.
func schemas[In, Out any](name string) (in, data *jsonschema.Schema) {
	in, err := schemaFor[In]()
	if err != nil {
		panic("tools: " + name + ": input schema: " + err.Error())
	}
	if reflect.TypeFor[Out]() == reflect.TypeFor[File]() {
		return in, &jsonschema.Schema{Type: "string", Description: "the file"}
	}
	data, err = payloadSchemaFor[Out]()
	if err != nil {
		panic("tools: " + name + ": output schema: " + err.Error())
	}
	return in, data
}

// caller is the Call of a handler for tool t: authorize the principal for
// t's action (a HUMAN_APPROVAL_REQUIRED carries t's person url), decode the
// arguments strictly against the resolved input schema, run the handler; its
// payload's lists are [] when empty (EmptyLists), as the documents say. A tool whose route reads
// optional or no credentials is not authorized here: its core method
// decides (a public read needs no principal).
func caller[In, Out any](t *Tool, in *validator, h Handler[In, Out]) func(ctx context.Context, p core.Principal, args json.RawMessage) (any, error) {
	action, personURL := t.Action, t.PersonURL
	authorize := t.Route == nil || t.Route.Credentials == CredentialsRequired
	return func(ctx context.Context, p core.Principal, args json.RawMessage) (any, error) {
		if authorize {
			if err := core.Authorize(p, action, ""); err != nil {
				if e := core.AsError(err); e.Code == core.CodeHumanApprovalRequired && personURL != nil {
					e.URL = personURL(args)
				}
				return nil, err
			}
		}
		var v In
		if err := decodeArgs(in, args, &v); err != nil {
			return nil, err
		}
		out, err := h(ctx, p, v)
		return EmptyLists(out), err
	}
}
