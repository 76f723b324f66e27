package core

import "context"

// Role is a person's role in a workspace.
type Role string

// The workspace roles.
const (
	RoleOwner  Role = "owner"
	RoleAdmin  Role = "admin"
	RoleMember Role = "member"
)

// Valid reports whether r is one of the three roles.
func (r Role) Valid() bool { return r == RoleOwner || r == RoleAdmin || r == RoleMember }

// Manager reports whether the role is owner or admin.
func (r Role) Manager() bool { return r == RoleOwner || r == RoleAdmin }

// Via is how a request authenticated.
type Via string

// The ways a principal can reach Giftwell.
const (
	// ViaSession is a person signed in to the web app.
	ViaSession Via = "session"
	// ViaKey is a workspace API key, acting as its creator.
	ViaKey Via = "key"
	// ViaConnection is an OAuth sign-in connection (an assistant connector).
	ViaConnection Via = "connection"
)

// Mode is a workspace's or a record's mode.
type Mode string

// The two modes.
const (
	ModeTest Mode = "test"
	ModeLive Mode = "live"
)

// Scope is an OAuth scope a sign-in connection may hold.
type Scope string

// The OAuth scopes.
const (
	ScopeRead  Scope = "gifts:read"
	ScopeWrite Scope = "gifts:write"
	ScopeLinks Scope = "gifts:links:read"
)

// AllScopes lists the scopes in the order they are shown to people.
var AllScopes = []Scope{ScopeRead, ScopeWrite, ScopeLinks}

// Principal is who is asking: every request resolves to one before any tool runs.
type Principal struct {
	WorkspaceID string
	UserID      string
	Role        Role
	Via         Via
	// Scopes are the granted OAuth scopes; empty unless Via is ViaConnection.
	Scopes []Scope
	// Mode is the workspace's current mode.
	Mode Mode
	// IsDemo marks a preview-only workspace.
	IsDemo bool
	// CredentialID is the key, session or grant the request used.
	CredentialID string
	// Resource is the resource indicator (RFC 8707) a connection's grant is
	// bound to: {mcp_url} or {chatgpt_mcp_url}; empty for keys and sessions.
	Resource string
	// Names are the credential's and person's names as read when the
	// request was authenticated, or nil when they were not read.
	Names *CredentialNames
}

// CredentialNames are what a gift's trail calls whoever prepared it: the
// credential's name (a key's name, a connected app's client name, or the
// person's name for a session) and the email of the person behind it.
type CredentialNames struct {
	Name  string
	Email string
}

// Anonymous reports whether the principal carries no identity.
func (p Principal) Anonymous() bool { return p.WorkspaceID == "" }

// HasScope reports whether a connection holds s. Keys and sessions hold every scope.
func (p Principal) HasScope(s Scope) bool {
	if p.Via != ViaConnection {
		return true
	}
	for _, g := range p.Scopes {
		if g == s {
			return true
		}
	}
	return false
}

type principalKey struct{}

// WithPrincipal returns a context carrying p.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the principal in ctx and whether there was one.
func PrincipalFrom(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}
