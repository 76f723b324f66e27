package core

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/ory/fosite"
	"github.com/ory/fosite/handler/oauth2"
	"github.com/ory/fosite/handler/pkce"

	"github.com/giftwell/giftwell/sql/db"
)

// OAuthSession is the fosite session of a sign-in connection: the grant the
// tokens belong to and who it acts as. It is stored with every token.
type OAuthSession struct {
	GrantID     string                         `json:"grant_id"`
	WorkspaceID string                         `json:"workspace_id"`
	UserID      string                         `json:"user_id"`
	ExpiresAt   map[fosite.TokenType]time.Time `json:"expires_at"`
}

var _ fosite.Session = (*OAuthSession)(nil)

// SetExpiresAt implements fosite.Session.
func (s *OAuthSession) SetExpiresAt(key fosite.TokenType, exp time.Time) {
	if s.ExpiresAt == nil {
		s.ExpiresAt = map[fosite.TokenType]time.Time{}
	}
	s.ExpiresAt[key] = exp
}

// GetExpiresAt implements fosite.Session.
func (s *OAuthSession) GetExpiresAt(key fosite.TokenType) time.Time { return s.ExpiresAt[key] }

// GetUsername implements fosite.Session.
func (s *OAuthSession) GetUsername() string { return s.UserID }

// GetSubject implements fosite.Session.
func (s *OAuthSession) GetSubject() string { return s.UserID }

// Clone implements fosite.Session.
func (s *OAuthSession) Clone() fosite.Session {
	c := *s
	c.ExpiresAt = make(map[fosite.TokenType]time.Time, len(s.ExpiresAt))
	for k, v := range s.ExpiresAt {
		c.ExpiresAt[k] = v
	}
	return &c
}

var _ fosite.Client = (*OAuthClient)(nil)

// GetID implements fosite.Client.
func (c *OAuthClient) GetID() string { return c.ClientID }

// GetHashedSecret implements fosite.Client: the SHA-256 (hex) that
// OAuthSecretHasher compares.
func (c *OAuthClient) GetHashedSecret() []byte { return []byte(c.SecretHash) }

// GetRedirectURIs implements fosite.Client.
func (c *OAuthClient) GetRedirectURIs() []string { return c.RedirectURIs }

// GetGrantTypes implements fosite.Client.
func (c *OAuthClient) GetGrantTypes() fosite.Arguments { return c.GrantTypes }

// GetResponseTypes implements fosite.Client.
func (c *OAuthClient) GetResponseTypes() fosite.Arguments { return c.ResponseTypes }

// GetScopes implements fosite.Client.
func (c *OAuthClient) GetScopes() fosite.Arguments { return splitScope(c.Scope) }

// IsPublic implements fosite.Client.
func (c *OAuthClient) IsPublic() bool { return c.TokenEndpointAuthMethod == AuthMethodNone }

// GetAudience implements fosite.Client; resources are checked by the face.
func (c *OAuthClient) GetAudience() fosite.Arguments { return nil }

// OAuthSecretHasher compares client secrets with their stored SHA-256 (hex).
// Secrets are 256 random bits, so a fast hash is enough (as for API keys).
type OAuthSecretHasher struct{}

var _ fosite.Hasher = OAuthSecretHasher{}

// Compare implements fosite.Hasher in constant time.
func (OAuthSecretHasher) Compare(_ context.Context, hash, data []byte) error {
	sum := sha256.Sum256(data)
	want := []byte(hex.EncodeToString(sum[:]))
	if len(hash) == 0 || subtle.ConstantTimeCompare(hash, want) != 1 {
		return errors.New("client secret mismatch")
	}
	return nil
}

// Hash implements fosite.Hasher.
func (OAuthSecretHasher) Hash(_ context.Context, data []byte) ([]byte, error) {
	return []byte(HashOAuthSecret(string(data))), nil
}

// OAuthStore is fosite's storage in PostgreSQL: clients, and every token kind
// in oauth_tokens by signature. It follows fosite's storage/memory.go:
// unknown → fosite.ErrNotFound, a used code → ErrInvalidatedAuthorizeCode
// with its request, a used refresh token → ErrInactiveToken with its request.
type OAuthStore struct{ app *App }

// OAuthStore returns the App's fosite storage.
func (a *App) OAuthStore() *OAuthStore { return &OAuthStore{app: a} }

var (
	_ fosite.Storage                = (*OAuthStore)(nil)
	_ oauth2.CoreStorage            = (*OAuthStore)(nil)
	_ oauth2.TokenRevocationStorage = (*OAuthStore)(nil)
	_ pkce.PKCERequestStorage       = (*OAuthStore)(nil)
)

// The kinds of oauth_tokens rows.
const (
	tokenKindCode    = "authorize_code"
	tokenKindAccess  = "access_token"
	tokenKindRefresh = "refresh_token"
	tokenKindPKCE    = "pkce"
)

// GetClient implements fosite.ClientManager.
func (s *OAuthStore) GetClient(ctx context.Context, id string) (fosite.Client, error) {
	c, err := s.app.OAuthClientByID(ctx, id)
	if ErrorCode(err) == CodeNotFound {
		return nil, fosite.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// ClientAssertionJWTValid implements fosite.ClientManager; JWT client
// assertions are not supported, so no JTI is ever known.
func (s *OAuthStore) ClientAssertionJWTValid(context.Context, string) error { return nil }

// SetClientAssertionJWT implements fosite.ClientManager; see ClientAssertionJWTValid.
func (s *OAuthStore) SetClientAssertionJWT(context.Context, string, time.Time) error { return nil }

// CreateAuthorizeCodeSession implements oauth2.AuthorizeCodeStorage.
func (s *OAuthStore) CreateAuthorizeCodeSession(ctx context.Context, sig string, r fosite.Requester) error {
	return s.create(ctx, tokenKindCode, sig, fosite.AuthorizeCode, r)
}

// GetAuthorizeCodeSession implements oauth2.AuthorizeCodeStorage.
func (s *OAuthStore) GetAuthorizeCodeSession(ctx context.Context, sig string, session fosite.Session) (fosite.Requester, error) {
	r, active, err := s.get(ctx, tokenKindCode, sig, session)
	if err != nil {
		return nil, err
	}
	if !active {
		return r, fosite.ErrInvalidatedAuthorizeCode
	}
	return r, nil
}

// InvalidateAuthorizeCodeSession implements oauth2.AuthorizeCodeStorage.
// Only an active code is invalidated, so of two concurrent redemptions the
// second fails.
func (s *OAuthStore) InvalidateAuthorizeCodeSession(ctx context.Context, sig string) error {
	n, err := db.New(s.app.DB).OAuthTokenDeactivate(ctx, db.OAuthTokenDeactivateParams{Kind: tokenKindCode, Signature: sig})
	if err != nil {
		return err
	}
	if n == 0 {
		return fosite.ErrInvalidatedAuthorizeCode
	}
	return nil
}

// CreateAccessTokenSession implements oauth2.AccessTokenStorage.
func (s *OAuthStore) CreateAccessTokenSession(ctx context.Context, sig string, r fosite.Requester) error {
	return s.create(ctx, tokenKindAccess, sig, fosite.AccessToken, r)
}

// GetAccessTokenSession implements oauth2.AccessTokenStorage.
func (s *OAuthStore) GetAccessTokenSession(ctx context.Context, sig string, session fosite.Session) (fosite.Requester, error) {
	r, active, err := s.get(ctx, tokenKindAccess, sig, session)
	if err != nil {
		return nil, err
	}
	if !active {
		return nil, fosite.ErrNotFound
	}
	return r, nil
}

// DeleteAccessTokenSession implements oauth2.AccessTokenStorage.
func (s *OAuthStore) DeleteAccessTokenSession(ctx context.Context, sig string) error {
	return db.New(s.app.DB).OAuthTokenDelete(ctx, db.OAuthTokenDeleteParams{Kind: tokenKindAccess, Signature: sig})
}

// CreateRefreshTokenSession implements oauth2.RefreshTokenStorage. A new
// refresh token (at consent or rotation) keeps the grant 30 more days, up to
// its hard expiry.
func (s *OAuthStore) CreateRefreshTokenSession(ctx context.Context, sig string, _ string, r fosite.Requester) error {
	if err := s.create(ctx, tokenKindRefresh, sig, fosite.RefreshToken, r); err != nil {
		return err
	}
	grantID := sessionOf(r).GrantID
	return db.New(s.app.DB).OAuthGrantExtend(ctx, db.OAuthGrantExtendParams{ID: grantID, Now: s.app.Clock.Now()})
}

// GetRefreshTokenSession implements oauth2.RefreshTokenStorage.
func (s *OAuthStore) GetRefreshTokenSession(ctx context.Context, sig string, session fosite.Session) (fosite.Requester, error) {
	r, active, err := s.get(ctx, tokenKindRefresh, sig, session)
	if err != nil {
		return nil, err
	}
	if !active {
		return r, fosite.ErrInactiveToken
	}
	return r, nil
}

// DeleteRefreshTokenSession implements oauth2.RefreshTokenStorage.
func (s *OAuthStore) DeleteRefreshTokenSession(ctx context.Context, sig string) error {
	return db.New(s.app.DB).OAuthTokenDelete(ctx, db.OAuthTokenDeleteParams{Kind: tokenKindRefresh, Signature: sig})
}

// RotateRefreshToken implements oauth2.RefreshTokenStorage: the used refresh
// token stays as an inactive row, so that replaying it is recognised. Only
// an active refresh token rotates, so of two concurrent refreshes with one
// token the second fails.
func (s *OAuthStore) RotateRefreshToken(ctx context.Context, requestID string, sig string) error {
	q := db.New(s.app.DB)
	n, err := q.OAuthTokenDeactivate(ctx, db.OAuthTokenDeactivateParams{Kind: tokenKindRefresh, Signature: sig})
	if err != nil {
		return err
	}
	if n == 0 {
		return fosite.ErrInactiveToken
	}
	if err := q.OAuthTokensDeactivateByRequest(ctx, db.OAuthTokensDeactivateByRequestParams{Kind: tokenKindRefresh, RequestID: requestID}); err != nil {
		return err
	}
	return q.OAuthTokensDeactivateByRequest(ctx, db.OAuthTokensDeactivateByRequestParams{Kind: tokenKindAccess, RequestID: requestID})
}

// RevokeRefreshToken implements oauth2.TokenRevocationStorage. fosite calls
// it on revocation, on a replayed refresh token and on a replayed code: each
// ends the whole grant.
func (s *OAuthStore) RevokeRefreshToken(ctx context.Context, requestID string) error {
	return db.New(s.app.DB).OAuthGrantRevokeByRequest(ctx, db.OAuthGrantRevokeByRequestParams{RequestID: requestID, Now: s.app.Clock.Now()})
}

// RevokeAccessToken implements oauth2.TokenRevocationStorage.
func (s *OAuthStore) RevokeAccessToken(ctx context.Context, requestID string) error {
	return db.New(s.app.DB).OAuthTokensDeactivateByRequest(ctx, db.OAuthTokensDeactivateByRequestParams{Kind: tokenKindAccess, RequestID: requestID})
}

// CreatePKCERequestSession implements pkce.PKCERequestStorage.
func (s *OAuthStore) CreatePKCERequestSession(ctx context.Context, sig string, r fosite.Requester) error {
	return s.create(ctx, tokenKindPKCE, sig, fosite.AuthorizeCode, r)
}

// GetPKCERequestSession implements pkce.PKCERequestStorage.
func (s *OAuthStore) GetPKCERequestSession(ctx context.Context, sig string, session fosite.Session) (fosite.Requester, error) {
	r, _, err := s.get(ctx, tokenKindPKCE, sig, session)
	return r, err
}

// DeletePKCERequestSession implements pkce.PKCERequestStorage.
func (s *OAuthStore) DeletePKCERequestSession(ctx context.Context, sig string) error {
	return db.New(s.app.DB).OAuthTokenDelete(ctx, db.OAuthTokenDeleteParams{Kind: tokenKindPKCE, Signature: sig})
}

// tokenLifetimes are the lifetimes of the stored token kinds.
var tokenLifetimes = map[fosite.TokenType]time.Duration{
	fosite.AccessToken:   OAuthAccessTokenLifetime,
	fosite.RefreshToken:  OAuthGrantIdleLifetime,
	fosite.AuthorizeCode: OAuthCodeLifetime,
}

// sessionOf is the request's OAuthSession (an empty one for any other session type).
func sessionOf(r fosite.Requester) *OAuthSession {
	if s, ok := r.GetSession().(*OAuthSession); ok {
		return s
	}
	return &OAuthSession{}
}

// create stores one token row of the request r.
func (s *OAuthStore) create(ctx context.Context, kind, sig string, tt fosite.TokenType, r fosite.Requester) error {
	sess := sessionOf(r)
	if sess.GrantID == "" {
		return errors.New("oauth: request without a grant")
	}
	form := url.Values{}
	for k, v := range r.GetRequestForm() {
		if k != "client_secret" && k != "code_verifier" && k != "code" && k != "refresh_token" {
			form[k] = v
		}
	}
	formJSON, err := json.Marshal(form)
	if err != nil {
		return err
	}
	sessJSON, err := json.Marshal(sess)
	if err != nil {
		return err
	}
	// Expiry on the App's clock (fosite's own, in the session, is on the
	// wall clock), so that Authenticate and the grant checks agree.
	exp := s.app.Clock.Now().Add(tokenLifetimes[tt])
	return db.New(s.app.DB).OAuthTokenInsert(ctx, db.OAuthTokenInsertParams{
		Signature: sig, Kind: kind, RequestID: r.GetID(), GrantID: sess.GrantID, ClientID: r.GetClient().GetID(),
		RequestedAt: r.GetRequestedAt(), ExpiresAt: exp,
		Scopes: emptyIfNil(r.GetRequestedScopes()), GrantedScopes: emptyIfNil(r.GetGrantedScopes()),
		FormData: formJSON, SessionData: sessJSON,
	})
}

// get loads a token row and rebuilds its request; a token of an ended grant is not found.
func (s *OAuthStore) get(ctx context.Context, kind, sig string, session fosite.Session) (fosite.Requester, bool, error) {
	row, err := db.New(s.app.DB).OAuthTokenGetLive(ctx, db.OAuthTokenGetLiveParams{Kind: kind, Signature: sig, Now: s.app.Clock.Now()})
	if isNoRows(err) {
		return nil, false, fosite.ErrNotFound
	}
	if err != nil {
		return nil, false, err
	}
	if !row.GrantLive && row.Active {
		return nil, false, fosite.ErrNotFound
	}
	client, err := s.GetClient(ctx, row.ClientID)
	if err != nil {
		return nil, false, err
	}
	if session == nil {
		session = &OAuthSession{}
	}
	if err := json.Unmarshal(row.SessionData, session); err != nil {
		return nil, false, err
	}
	var form url.Values
	if err := json.Unmarshal(row.FormData, &form); err != nil {
		return nil, false, err
	}
	r := &fosite.Request{
		ID: row.RequestID, RequestedAt: row.RequestedAt, Client: client,
		RequestedScope: row.Scopes, GrantedScope: row.GrantedScopes,
		Form: form, Session: session,
	}
	return r, row.Active, nil
}

// emptyIfNil keeps NOT NULL array columns non-null.
func emptyIfNil(a fosite.Arguments) []string {
	if a == nil {
		return []string{}
	}
	return a
}

// splitScope splits a space-separated scope string.
func splitScope(s string) fosite.Arguments {
	out := fosite.Arguments{}
	for _, f := range strings.Fields(s) {
		out = append(out, f)
	}
	return out
}
