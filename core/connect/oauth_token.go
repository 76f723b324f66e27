package connect

import (
	"context"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// OAuthTokenKind is the kind of a stored OAuth token record.
type OAuthTokenKind string

// The kinds of OAuth token records: every one is an OAuthToken, looked up by
// kind and signature.
const (
	OAuthKindCode    OAuthTokenKind = "authorize_code"
	OAuthKindAccess  OAuthTokenKind = "access_token"
	OAuthKindRefresh OAuthTokenKind = "refresh_token"
	// OAuthKindPKCE is the PKCE request of an authorization code (its challenge).
	OAuthKindPKCE OAuthTokenKind = "pkce"
)

// Lifetime is how long a token of kind k lives from its creation: 15
// minutes for access tokens, 10 for codes and their PKCE requests, and the
// grant's idle lifetime (30 days) for refresh tokens.
func (k OAuthTokenKind) Lifetime() time.Duration {
	switch k {
	case OAuthKindAccess:
		return OAuthAccessTokenLifetime
	case OAuthKindRefresh:
		return OAuthGrantIdleLifetime
	default:
		return OAuthCodeLifetime
	}
}

// OAuthToken is one stored token of any kind: an authorization code, an
// access or refresh token, or a code's PKCE request. Only the token's
// signature (the SHA-256 of the token, see HashOAuthSecret) is stored; Form
// and Session are the authorization server's own serialised request form
// (without secrets) and session, kept as it gives them.
type OAuthToken struct {
	Kind      OAuthTokenKind
	Signature string
	// RequestID is shared by every token issued from one authorization.
	RequestID     string
	GrantID       string
	ClientID      string
	RequestedAt   time.Time
	ExpiresAt     time.Time
	Scopes        []string
	GrantedScopes []string
	Form          []byte
	Session       []byte
	// Active is false once the token was used (codes, refresh tokens) or revoked.
	Active bool
}

// CreateOAuthToken stores t. ExpiresAt is set from its kind's Lifetime on
// the Kernel's clock. A new refresh token (at consent or rotation) also keeps
// its grant 30 more days, never past the grant's hard expiry. It joins the
// caller's transaction (see BeginTx). It returns VALIDATION_ERROR for a
// token without a grant, or INTERNAL_ERROR.
func (a *Service) CreateOAuthToken(ctx context.Context, t OAuthToken) error {
	if t.GrantID == "" {
		return core.Invalid("grant_id", "an OAuth token belongs to a grant")
	}
	now := a.Clock.Now()
	insert := func(q *db.Queries) error {
		err := q.OAuthTokenInsert(ctx, db.OAuthTokenInsertParams{
			Signature: t.Signature, Kind: string(t.Kind), RequestID: t.RequestID, GrantID: t.GrantID, ClientID: t.ClientID,
			RequestedAt: t.RequestedAt, ExpiresAt: now.Add(t.Kind.Lifetime()),
			Scopes: emptyIfNil(t.Scopes), GrantedScopes: emptyIfNil(t.GrantedScopes),
			FormData: jsonObject(t.Form), SessionData: jsonObject(t.Session),
		})
		if err != nil {
			return core.Internal(err)
		}
		return nil
	}
	if t.Kind != OAuthKindRefresh {
		return insert(db.New(a.Conn(ctx)))
	}
	return core.AsCoreError(a.InTx(ctx, func(q *db.Queries) error {
		if err := insert(q); err != nil {
			return err
		}
		if err := q.OAuthGrantExtend(ctx, db.OAuthGrantExtendParams{ID: t.GrantID, Now: now}); err != nil {
			return core.Internal(err)
		}
		return nil
	}))
}

// OAuthTokenBySignature returns the token of kind with signature, active or
// used. A token of an ended grant (expired, revoked, or its person left the
// workspace) is not found unless it was already used, so that a replay is
// still recognised as one. It joins the caller's transaction. It returns
// NOT_FOUND or INTERNAL_ERROR.
func (a *Service) OAuthTokenBySignature(ctx context.Context, kind OAuthTokenKind, signature string) (OAuthToken, error) {
	row, err := db.New(a.Conn(ctx)).OAuthTokenGetLive(ctx, db.OAuthTokenGetLiveParams{Kind: string(kind), Signature: signature, Now: a.Clock.Now()})
	if core.IsNoRows(err) || (err == nil && !row.GrantLive && row.Active) {
		return OAuthToken{}, core.Errorf(core.CodeNotFound, "no live %s with this signature", kind)
	}
	if err != nil {
		return OAuthToken{}, core.Internal(err)
	}
	return OAuthToken{
		Kind: OAuthTokenKind(row.Kind), Signature: row.Signature, RequestID: row.RequestID, GrantID: row.GrantID,
		ClientID: row.ClientID, RequestedAt: core.UTC(row.RequestedAt), ExpiresAt: core.UTC(row.ExpiresAt),
		Scopes: row.Scopes, GrantedScopes: row.GrantedScopes, Form: row.FormData, Session: row.SessionData, Active: row.Active,
	}, nil
}

// UseOAuthToken marks the active token of kind with signature as used.
// Only an active token is used up, so of two concurrent redemptions exactly
// one succeeds. It joins the caller's transaction. It returns NOT_FOUND
// when no active token has the signature, or INTERNAL_ERROR.
func (a *Service) UseOAuthToken(ctx context.Context, kind OAuthTokenKind, signature string) error {
	n, err := db.New(a.Conn(ctx)).OAuthTokenDeactivate(ctx, db.OAuthTokenDeactivateParams{Kind: string(kind), Signature: signature})
	if err != nil {
		return core.Internal(err)
	}
	if n == 0 {
		return errOAuthTokenNotFound(kind)
	}
	return nil
}

// DeleteOAuthToken removes the token of kind with signature; removing an
// unknown one is not an error. It joins the caller's transaction. It
// returns INTERNAL_ERROR.
func (a *Service) DeleteOAuthToken(ctx context.Context, kind OAuthTokenKind, signature string) error {
	err := db.New(a.Conn(ctx)).OAuthTokenDelete(ctx, db.OAuthTokenDeleteParams{Kind: string(kind), Signature: signature})
	if err != nil {
		return core.Internal(err)
	}
	return nil
}

// RotateOAuthRefreshToken uses up the active refresh token with signature
// and ends every other refresh and access token of its request. The used
// token stays as an inactive record, so that replaying it is recognised.
// Only an active refresh token rotates, so of two concurrent refreshes with
// one token exactly one succeeds. It joins the caller's transaction (the
// adapter runs it with the new tokens' CreateOAuthToken in one). It returns
// NOT_FOUND when no active refresh token has the signature, or INTERNAL_ERROR.
func (a *Service) RotateOAuthRefreshToken(ctx context.Context, requestID, signature string) error {
	return core.AsCoreError(a.InTx(ctx, func(q *db.Queries) error {
		n, err := q.OAuthTokenDeactivate(ctx, db.OAuthTokenDeactivateParams{Kind: string(OAuthKindRefresh), Signature: signature})
		if err != nil {
			return core.Internal(err)
		}
		if n == 0 {
			return errOAuthTokenNotFound(OAuthKindRefresh)
		}
		for _, kind := range []OAuthTokenKind{OAuthKindRefresh, OAuthKindAccess} {
			err := q.OAuthTokensDeactivateByRequest(ctx, db.OAuthTokensDeactivateByRequestParams{Kind: string(kind), RequestID: requestID})
			if err != nil {
				return core.Internal(err)
			}
		}
		return nil
	}))
}

// RevokeOAuthTokens ends every active token of kind issued from the
// request requestID. It joins the caller's transaction. It returns INTERNAL_ERROR.
func (a *Service) RevokeOAuthTokens(ctx context.Context, kind OAuthTokenKind, requestID string) error {
	err := db.New(a.Conn(ctx)).OAuthTokensDeactivateByRequest(ctx, db.OAuthTokensDeactivateByRequestParams{Kind: string(kind), RequestID: requestID})
	if err != nil {
		return core.Internal(err)
	}
	return nil
}

// RevokeOAuthGrantByRequest ends the grant whose tokens the request
// requestID issued, and every token of that grant: revocation of a refresh
// token and a replayed refresh token or code end the whole grant. It joins
// the caller's transaction. It returns INTERNAL_ERROR.
func (a *Service) RevokeOAuthGrantByRequest(ctx context.Context, requestID string) error {
	err := db.New(a.Conn(ctx)).OAuthGrantRevokeByRequest(ctx, db.OAuthGrantRevokeByRequestParams{RequestID: requestID, Now: a.Clock.Now()})
	if err != nil {
		return core.Internal(err)
	}
	return nil
}

// errOAuthTokenNotFound is NOT_FOUND for an active token of kind.
func errOAuthTokenNotFound(kind OAuthTokenKind) *core.Error {
	return core.Errorf(core.CodeNotFound, "no active %s with this signature", kind)
}

// emptyIfNil keeps NOT NULL array columns non-null.
func emptyIfNil(a []string) []string {
	if a == nil {
		return []string{}
	}
	return a
}

// jsonObject keeps NOT NULL jsonb columns valid: an empty document is {}.
func jsonObject(b []byte) []byte {
	if len(b) == 0 {
		return []byte("{}")
	}
	return b
}
