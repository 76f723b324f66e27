package core

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/giftwell/giftwell/sql/db"
)

// Grant lifetimes (spec Authentication §3).
const (
	// OAuthGrantIdleLifetime is how long a grant stays valid after consent or its latest refresh.
	OAuthGrantIdleLifetime = 30 * 24 * time.Hour
	// OAuthGrantMaxLifetime is how long a grant can live at most after consent.
	OAuthGrantMaxLifetime = 365 * 24 * time.Hour
	// OAuthAccessTokenLifetime is how long an access token works.
	OAuthAccessTokenLifetime = 15 * time.Minute
	// OAuthCodeLifetime is how long an authorization code can be redeemed.
	OAuthCodeLifetime = 10 * time.Minute
)

// OAuthRefreshTokenPrefix starts OAuth refresh tokens; OAuthCodePrefix authorization codes.
const (
	OAuthRefreshTokenPrefix = "mco_refresh_"
	OAuthCodePrefix         = "mco_code_"
)

// OAuthGrant is one consent: a person lets a client act in a workspace with
// scopes, on one resource.
type OAuthGrant struct {
	ID          string
	ClientID    string
	WorkspaceID string
	UserID      string
	Resource    string
	Scopes      []Scope
	ConsentedAt time.Time
	ExpiresAt   time.Time
	RevokedAt   *time.Time
}

// OAuthResources are the resource indicators a grant can be bound to:
// {mcp_url} and {chatgpt_mcp_url}.
func (c Config) OAuthResources() []string { return []string{c.MCPURL(), c.ChatGPTMCPURL()} }

// CreateOAuthGrant records the consent of the signed-in person p for client
// to act in p's workspace with scopes on resource. It returns
// AUTH_REQUIRED unless p is a signed-in session, VALIDATION_ERROR for an
// unknown resource or scope or an empty scope list, NOT_FOUND for an unknown
// client, or INTERNAL_ERROR.
func (a *App) CreateOAuthGrant(ctx context.Context, p Principal, clientID, resource string, scopes []Scope) (OAuthGrant, error) {
	if p.Via != ViaSession || p.Anonymous() {
		return OAuthGrant{}, a.authRequired("sign in to connect an app")
	}
	if !slices.Contains(a.Config.OAuthResources(), resource) {
		return OAuthGrant{}, Invalid("resource", "must be %s or %s", a.Config.MCPURL(), a.Config.ChatGPTMCPURL())
	}
	if len(scopes) == 0 {
		return OAuthGrant{}, Invalid("scope", "grant at least one scope")
	}
	str := make([]string, 0, len(scopes))
	for _, s := range scopes {
		if !slices.Contains(AllScopes, s) {
			return OAuthGrant{}, Invalid("scope", "unknown scope %q", s)
		}
		if !slices.Contains(str, string(s)) {
			str = append(str, string(s))
		}
	}
	if _, err := a.OAuthClientByID(ctx, clientID); err != nil {
		return OAuthGrant{}, err
	}
	now := a.Clock.Now().UTC()
	g := OAuthGrant{
		ID: NewID(PrefixOAuthGrant), ClientID: clientID, WorkspaceID: p.WorkspaceID, UserID: p.UserID,
		Resource: resource, Scopes: scopes, ConsentedAt: now, ExpiresAt: now.Add(OAuthGrantIdleLifetime),
	}
	err := db.New(a.DB).OAuthGrantInsert(ctx, db.OAuthGrantInsertParams{
		ID: g.ID, ClientID: clientID, WorkspaceID: p.WorkspaceID, UserID: p.UserID, Resource: resource,
		Scopes: str, ConsentedAt: now, ExpiresAt: g.ExpiresAt, HardExpiresAt: now.Add(OAuthGrantMaxLifetime),
	})
	if err != nil {
		return OAuthGrant{}, Internal(err)
	}
	return g, nil
}

// OAuthGrantByID returns a grant. It returns NOT_FOUND or INTERNAL_ERROR.
func (a *App) OAuthGrantByID(ctx context.Context, id string) (OAuthGrant, error) {
	r, err := db.New(a.DB).OAuthGrantGetByID(ctx, id)
	if isNoRows(err) {
		return OAuthGrant{}, Errorf(CodeNotFound, "no grant %q", id)
	}
	if err != nil {
		return OAuthGrant{}, Internal(err)
	}
	g := OAuthGrant{ID: r.ID, ClientID: r.ClientID, WorkspaceID: r.WorkspaceID, UserID: r.UserID, Resource: r.Resource,
		ConsentedAt: utc(r.ConsentedAt), ExpiresAt: utc(r.ExpiresAt), RevokedAt: utcPtr(r.RevokedAt)}
	for _, s := range r.Scopes {
		g.Scopes = append(g.Scopes, Scope(s))
	}
	return g, nil
}

// authenticateConnection resolves an OAuth access token in one round trip:
// token hash → live grant → current membership → workspace.
func (a *App) authenticateConnection(ctx context.Context, bearer string) (Principal, error) {
	if !isOAuthTokenFormat(bearer, OAuthAccessTokenPrefix) {
		return Principal{}, a.authRequired("an access token is mco_access_ followed by 64 lowercase hex characters")
	}
	row, err := db.New(a.DB).OAuthAccessAuthenticate(ctx, db.OAuthAccessAuthenticateParams{
		Signature: HashOAuthSecret(bearer), Now: a.Clock.Now(),
	})
	if isNoRows(err) {
		return Principal{}, a.authRequired("the access token is unknown, expired or revoked; reconnect the app")
	}
	if err != nil {
		return Principal{}, Internal(err)
	}
	scopes := make([]Scope, 0, len(row.Scopes))
	for _, s := range row.Scopes {
		scopes = append(scopes, Scope(s))
	}
	return Principal{
		WorkspaceID: row.WorkspaceID, UserID: row.UserID, Role: Role(row.Role), Via: ViaConnection,
		Scopes: scopes, Mode: Mode(row.Mode), IsDemo: row.IsDemo, CredentialID: row.GrantID,
		Resource: row.Resource,
	}, nil
}

// isOAuthTokenFormat reports whether tok is prefix followed by 64 lowercase
// hex characters, as the token strategy issues them.
func isOAuthTokenFormat(tok, prefix string) bool {
	hex, ok := strings.CutPrefix(tok, prefix)
	if !ok || len(hex) != 64 {
		return false
	}
	for i := 0; i < len(hex); i++ {
		if c := hex[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// ConnectedApp is one of a person's live grants, as the disconnect page lists it.
type ConnectedApp struct {
	GrantID     string
	ClientID    string
	ClientName  string
	Resource    string
	Scopes      []Scope
	ConsentedAt time.Time
	ExpiresAt   time.Time
}

// ListConnectedApps returns the signed-in person's live grants in their
// current workspace, newest first. It returns AUTH_REQUIRED unless p is a
// signed-in session, or INTERNAL_ERROR.
func (a *App) ListConnectedApps(ctx context.Context, p Principal) ([]ConnectedApp, error) {
	if p.Via != ViaSession || p.Anonymous() {
		return nil, a.authRequired("sign in to see your connected apps")
	}
	rows, err := db.New(a.DB).OAuthGrantListLive(ctx, db.OAuthGrantListLiveParams{WorkspaceID: p.WorkspaceID, UserID: p.UserID, Now: a.Clock.Now()})
	if err != nil {
		return nil, Internal(err)
	}
	out := make([]ConnectedApp, 0, len(rows))
	for _, r := range rows {
		c := ConnectedApp{GrantID: r.ID, ClientID: r.ClientID, ClientName: r.ClientName, Resource: r.Resource,
			ConsentedAt: utc(r.ConsentedAt), ExpiresAt: utc(r.ExpiresAt)}
		for _, s := range r.Scopes {
			c.Scopes = append(c.Scopes, Scope(s))
		}
		out = append(out, c)
	}
	return out, nil
}

// DisconnectApp ends one of the signed-in person's own grants at once: its
// tokens stop working. It returns AUTH_REQUIRED unless p is a signed-in
// session, NOT_FOUND for a grant that is not theirs in this workspace, or
// INTERNAL_ERROR.
func (a *App) DisconnectApp(ctx context.Context, p Principal, grantID string) error {
	if p.Via != ViaSession || p.Anonymous() {
		return a.authRequired("sign in to disconnect an app")
	}
	n, err := db.New(a.DB).OAuthGrantRevokeOwn(ctx, db.OAuthGrantRevokeOwnParams{ID: grantID, WorkspaceID: p.WorkspaceID, UserID: p.UserID, Now: a.Clock.Now()})
	if err != nil {
		return Internal(err)
	}
	if n == 0 {
		return Errorf(CodeNotFound, "grant_id: no connected app %q of yours in this workspace", grantID)
	}
	return nil
}
