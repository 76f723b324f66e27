package connect

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
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
	Scopes      []core.Scope
	ConsentedAt time.Time
	ExpiresAt   time.Time
	RevokedAt   *time.Time
}

// OAuthConsent is a signed-in person's answer to an authorization request
// on the consent page.
type OAuthConsent struct {
	ClientID string
	// Resources are the request's resource parameters (RFC 8707): exactly
	// one, {mcp_url} or {chatgpt_mcp_url}.
	Resources []string
	// WorkspaceID is the workspace the person picked; "" is the session's.
	WorkspaceID string
	// Requested are the scopes the client asked for.
	Requested []string
	// Ticked are the optional scopes the person left ticked (see OAuthConsentScopes).
	Ticked []string
}

// CreateOAuthGrant records the consent c of the signed-in person p: the
// client may act for p in the workspace p picked, with the scopes granted
// (gifts:read when asked for, and the optional scopes p left ticked), on one
// resource. The workspace must be one p belongs to, checked in the grant's
// own transaction; removing p from it meanwhile ends the grant.
//
// It returns AUTH_REQUIRED unless p is a signed-in session,
// VALIDATION_ERROR naming resource or scope for what CheckOAuthAuthorization
// refuses, for a scope the client did not register or when no scope is
// granted, NOT_FOUND naming workspace_id when p is not a member of the
// workspace, NOT_FOUND for an unknown client, or INTERNAL_ERROR.
func (a *Service) CreateOAuthGrant(ctx context.Context, p core.Principal, c OAuthConsent) (OAuthGrant, error) {
	if p.Via != core.ViaSession || p.Anonymous() {
		return OAuthGrant{}, a.AuthRequired("sign in to connect an app")
	}
	if err := CheckOAuthAuthorization(a.Config, c.Resources, c.Requested); err != nil {
		return OAuthGrant{}, err
	}
	for _, s := range c.Requested {
		if !slices.Contains(core.AllScopes, core.Scope(s)) {
			return OAuthGrant{}, core.Invalid("scope", "unknown scope %q", s)
		}
	}
	scopes, err := grantedScopes(c.Requested, c.Ticked)
	if err != nil {
		return OAuthGrant{}, err
	}
	workspaceID := c.WorkspaceID
	if workspaceID == "" {
		workspaceID = p.WorkspaceID
	}
	now := a.Clock.Now().UTC()
	g := OAuthGrant{
		ID: core.NewID(PrefixOAuthGrant), ClientID: c.ClientID, WorkspaceID: workspaceID, UserID: p.UserID,
		Resource: c.Resources[0], Scopes: scopes, ConsentedAt: now, ExpiresAt: now.Add(OAuthGrantIdleLifetime),
	}
	str := make([]string, len(scopes))
	for i, s := range scopes {
		str[i] = string(s)
	}
	err = pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		client, err := q.OAuthClientGetByID(ctx, c.ClientID)
		if core.IsNoRows(err) {
			return core.Errorf(core.CodeNotFound, "client_id: no client %q is registered", c.ClientID)
		}
		if err != nil {
			return core.Internal(err)
		}
		for _, s := range c.Requested {
			if !slices.Contains(strings.Fields(client.Scope), s) {
				return core.Invalid("scope", "the app did not register the scope %q", s)
			}
		}
		// The membership stays locked until commit: a removal waits, then
		// takes the grant with it (the grant's foreign key cascades).
		_, err = q.OAuthGrantLockMembership(ctx, db.OAuthGrantLockMembershipParams{WorkspaceID: workspaceID, UserID: p.UserID})
		if core.IsNoRows(err) {
			return &core.Error{Code: core.CodeNotFound, Message: "workspace_id: you are not a member of the workspace you picked",
				Fields: []string{"workspace_id"}}
		}
		if err != nil {
			return core.Internal(err)
		}
		err = q.OAuthGrantInsert(ctx, db.OAuthGrantInsertParams{
			ID: g.ID, ClientID: c.ClientID, WorkspaceID: workspaceID, UserID: p.UserID, Resource: g.Resource,
			Scopes: str, ConsentedAt: now, ExpiresAt: g.ExpiresAt, HardExpiresAt: now.Add(OAuthGrantMaxLifetime),
		})
		if err != nil {
			return core.Internal(err)
		}
		who := p
		who.WorkspaceID = workspaceID
		return a.RecordActivity(ctx, tx, who, core.ActivityRecord{Kind: core.ActivityAppConnected, Subject: client.ClientName})
	})
	if err != nil {
		return OAuthGrant{}, core.AsCoreError(err)
	}
	return g, nil
}

// OAuthGrantByID returns a grant. It joins the caller's transaction (see
// BeginTx). It returns NOT_FOUND or INTERNAL_ERROR.
func (a *Service) OAuthGrantByID(ctx context.Context, id string) (OAuthGrant, error) {
	r, err := db.New(a.Conn(ctx)).OAuthGrantGetByID(ctx, id)
	if core.IsNoRows(err) {
		return OAuthGrant{}, core.Errorf(core.CodeNotFound, "no grant %q", id)
	}
	if err != nil {
		return OAuthGrant{}, core.Internal(err)
	}
	g := OAuthGrant{ID: r.ID, ClientID: r.ClientID, WorkspaceID: r.WorkspaceID, UserID: r.UserID, Resource: r.Resource,
		ConsentedAt: core.UTC(r.ConsentedAt), ExpiresAt: core.UTC(r.ExpiresAt), RevokedAt: core.UTCPtr(r.RevokedAt)}
	for _, s := range r.Scopes {
		g.Scopes = append(g.Scopes, core.Scope(s))
	}
	return g, nil
}

// authenticateConnection resolves an OAuth access token in one round trip:
// token hash → live grant → current membership → workspace.
func (a *Service) authenticateConnection(ctx context.Context, bearer string) (core.Principal, error) {
	if !isOAuthTokenFormat(bearer, OAuthAccessTokenPrefix) {
		return core.Principal{}, a.AuthRequired("an access token is mco_access_ followed by 64 lowercase hex characters")
	}
	bucket, units, limit, at := a.RateChargeArgs(ctx)
	row, err := db.New(a.DB).OAuthAccessAuthenticate(ctx, db.OAuthAccessAuthenticateParams{
		Signature: HashOAuthSecret(bearer), Now: a.Clock.Now(),
		RateBucket: bucket, RateUnits: units, RateLimit: limit, RateAt: at,
	})
	if core.IsNoRows(err) {
		return core.Principal{}, a.AuthRequired("the access token is unknown, expired or revoked; reconnect the app")
	}
	if err != nil {
		return core.Principal{}, core.Internal(err)
	}
	if err := core.RateCounted(ctx, row.RateAdmitted, row.RateUsed, row.RateResetMs); err != nil {
		return core.Principal{}, err
	}
	scopes := make([]core.Scope, 0, len(row.Scopes))
	for _, s := range row.Scopes {
		scopes = append(scopes, core.Scope(s))
	}
	return core.Principal{
		WorkspaceID: row.WorkspaceID, UserID: row.UserID, Role: core.Role(row.Role), Via: core.ViaConnection,
		Scopes: scopes, Mode: core.Mode(row.Mode), IsDemo: row.IsDemo, CredentialID: row.GrantID,
		Resource: row.Resource, Names: &core.CredentialNames{Name: row.ClientName, Email: row.Email},
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
	Scopes      []core.Scope
	ConsentedAt time.Time
	ExpiresAt   time.Time
}

// ListConnectedApps returns the signed-in person's live grants in their
// current workspace, newest first. It returns AUTH_REQUIRED unless p is a
// signed-in session, or INTERNAL_ERROR.
func (a *Service) ListConnectedApps(ctx context.Context, p core.Principal) ([]ConnectedApp, error) {
	if p.Via != core.ViaSession || p.Anonymous() {
		return nil, a.AuthRequired("sign in to see your connected apps")
	}
	rows, err := db.New(a.DB).OAuthGrantListLive(ctx, db.OAuthGrantListLiveParams{WorkspaceID: p.WorkspaceID, UserID: p.UserID, Now: a.Clock.Now()})
	if err != nil {
		return nil, core.Internal(err)
	}
	out := make([]ConnectedApp, 0, len(rows))
	for _, r := range rows {
		c := ConnectedApp{GrantID: r.ID, ClientID: r.ClientID, ClientName: r.ClientName, Resource: r.Resource,
			ConsentedAt: core.UTC(r.ConsentedAt), ExpiresAt: core.UTC(r.ExpiresAt)}
		for _, s := range r.Scopes {
			c.Scopes = append(c.Scopes, core.Scope(s))
		}
		out = append(out, c)
	}
	return out, nil
}

// DisconnectApp ends one of the signed-in person's own grants at once: its
// tokens stop working. It returns AUTH_REQUIRED unless p is a signed-in
// session, NOT_FOUND for a grant that is not theirs in this workspace, or
// INTERNAL_ERROR.
func (a *Service) DisconnectApp(ctx context.Context, p core.Principal, grantID string) error {
	if p.Via != core.ViaSession || p.Anonymous() {
		return a.AuthRequired("sign in to disconnect an app")
	}
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		app, err := q.OAuthGrantRevokeOwnLive(ctx, db.OAuthGrantRevokeOwnLiveParams{ID: grantID, WorkspaceID: p.WorkspaceID, UserID: p.UserID, Now: a.Clock.Now()})
		if err == nil {
			return a.RecordActivity(ctx, tx, p, core.ActivityRecord{Kind: core.ActivityAppDisconnected, Subject: app})
		}
		if !core.IsNoRows(err) {
			return core.Internal(err)
		}
		// Not live: ended already (nothing changes), or not theirs.
		n, err := q.OAuthGrantRevokeOwn(ctx, db.OAuthGrantRevokeOwnParams{ID: grantID, WorkspaceID: p.WorkspaceID, UserID: p.UserID, Now: a.Clock.Now()})
		if err != nil {
			return core.Internal(err)
		}
		if n == 0 {
			return core.Errorf(core.CodeNotFound, "grant_id: no connected app %q of yours in this workspace", grantID)
		}
		return nil
	})
	return core.AsCoreError(err)
}

// OAuthAccessTokenPrefix starts OAuth access tokens of sign-in connections.
const OAuthAccessTokenPrefix = "mco_access_"
