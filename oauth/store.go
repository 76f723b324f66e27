package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"time"

	"github.com/ory/fosite"
	"github.com/ory/fosite/handler/oauth2"
	"github.com/ory/fosite/handler/pkce"
	"github.com/ory/fosite/storage"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/connect"
)

// Storage is everything fosite's compose needs from the store with the
// factories newProvider composes (authorization code, refresh, revocation,
// PKCE), and the transactions its token flows begin, commit and roll back.
type Storage interface {
	fosite.Storage
	oauth2.CoreStorage
	oauth2.TokenRevocationStorage
	pkce.PKCERequestStorage
	storage.Transactional
}

// Store is fosite's storage over core's OAuth records: clients
// (core.OAuthClient) and one token record shape for every kind
// (core.OAuthToken), looked up by kind and signature, as hydra's persister
// does. It behaves as fosite's storage/memory.go: unknown → fosite.ErrNotFound,
// a used code → ErrInvalidatedAuthorizeCode with its request, a used refresh
// token → ErrInactiveToken with its request.
//
// Store is storage.Transactional: fosite's code exchange and refresh-token
// rotation run their storage calls in one transaction that core carries in
// the context (core.App.BeginTx), so a failure between them leaves nothing
// half done.
type Store struct{ app *giftwell.App }

var _ Storage = (*Store)(nil)

// NewStore returns the fosite storage of app.
func NewStore(app *giftwell.App) *Store { return &Store{app: app} }

type matchedRedirectKey struct{}

// GetClient implements fosite.ClientManager. It applies Giftwell's redirect
// URI matcher: fosite's own lets any loopback port through only for IP
// literals and compares unescaped paths, so the authorize handler matches
// with core.RedirectURIMatches first and puts the matched URI in the
// context; the client fosite sees then has exactly that redirect URI.
func (s *Store) GetClient(ctx context.Context, id string) (fosite.Client, error) {
	c, err := s.app.Connect.OAuthClientByID(ctx, id)
	if core.ErrorCode(err) == core.CodeNotFound {
		return nil, fosite.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if uri, ok := ctx.Value(matchedRedirectKey{}).(string); ok {
		c.RedirectURIs = []string{uri}
	}
	return &Client{OAuthClient: c}, nil
}

// ClientAssertionJWTValid implements fosite.ClientManager; JWT client
// assertions are not supported, so no JTI is ever known.
func (s *Store) ClientAssertionJWTValid(context.Context, string) error { return nil }

// SetClientAssertionJWT implements fosite.ClientManager; see ClientAssertionJWTValid.
func (s *Store) SetClientAssertionJWT(context.Context, string, time.Time) error { return nil }

// BeginTX implements storage.Transactional: the returned context carries a
// transaction that every later call of the store with it joins.
func (s *Store) BeginTX(ctx context.Context) (context.Context, error) { return s.app.BeginTx(ctx) }

// Commit implements storage.Transactional.
func (s *Store) Commit(ctx context.Context) error { return s.app.CommitTx(ctx) }

// Rollback implements storage.Transactional.
func (s *Store) Rollback(ctx context.Context) error { return s.app.RollbackTx(ctx) }

// CreateAuthorizeCodeSession implements oauth2.AuthorizeCodeStorage.
func (s *Store) CreateAuthorizeCodeSession(ctx context.Context, sig string, r fosite.Requester) error {
	return s.create(ctx, connect.OAuthKindCode, sig, r)
}

// GetAuthorizeCodeSession implements oauth2.AuthorizeCodeStorage.
func (s *Store) GetAuthorizeCodeSession(ctx context.Context, sig string, session fosite.Session) (fosite.Requester, error) {
	r, active, err := s.get(ctx, connect.OAuthKindCode, sig, session)
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
func (s *Store) InvalidateAuthorizeCodeSession(ctx context.Context, sig string) error {
	err := s.app.Connect.UseOAuthToken(ctx, connect.OAuthKindCode, sig)
	if core.ErrorCode(err) == core.CodeNotFound {
		return fosite.ErrInvalidatedAuthorizeCode
	}
	return err
}

// CreateAccessTokenSession implements oauth2.AccessTokenStorage.
func (s *Store) CreateAccessTokenSession(ctx context.Context, sig string, r fosite.Requester) error {
	return s.create(ctx, connect.OAuthKindAccess, sig, r)
}

// GetAccessTokenSession implements oauth2.AccessTokenStorage.
func (s *Store) GetAccessTokenSession(ctx context.Context, sig string, session fosite.Session) (fosite.Requester, error) {
	r, active, err := s.get(ctx, connect.OAuthKindAccess, sig, session)
	if err != nil {
		return nil, err
	}
	if !active {
		return nil, fosite.ErrNotFound
	}
	return r, nil
}

// DeleteAccessTokenSession implements oauth2.AccessTokenStorage.
func (s *Store) DeleteAccessTokenSession(ctx context.Context, sig string) error {
	return s.app.Connect.DeleteOAuthToken(ctx, connect.OAuthKindAccess, sig)
}

// CreateRefreshTokenSession implements oauth2.RefreshTokenStorage. A new
// refresh token (at consent or rotation) keeps the grant 30 more days, up to
// its hard expiry (core.App.CreateOAuthToken).
func (s *Store) CreateRefreshTokenSession(ctx context.Context, sig string, _ string, r fosite.Requester) error {
	return s.create(ctx, connect.OAuthKindRefresh, sig, r)
}

// GetRefreshTokenSession implements oauth2.RefreshTokenStorage.
func (s *Store) GetRefreshTokenSession(ctx context.Context, sig string, session fosite.Session) (fosite.Requester, error) {
	r, active, err := s.get(ctx, connect.OAuthKindRefresh, sig, session)
	if err != nil {
		return nil, err
	}
	if !active {
		return r, fosite.ErrInactiveToken
	}
	return r, nil
}

// DeleteRefreshTokenSession implements oauth2.RefreshTokenStorage.
func (s *Store) DeleteRefreshTokenSession(ctx context.Context, sig string) error {
	return s.app.Connect.DeleteOAuthToken(ctx, connect.OAuthKindRefresh, sig)
}

// RotateRefreshToken implements oauth2.RefreshTokenStorage: the used refresh
// token stays as an inactive record, so that replaying it is recognised.
// Only an active refresh token rotates, so of two concurrent refreshes with
// one token the second fails (ErrInactiveToken).
func (s *Store) RotateRefreshToken(ctx context.Context, requestID string, sig string) error {
	err := s.app.Connect.RotateOAuthRefreshToken(ctx, requestID, sig)
	if core.ErrorCode(err) == core.CodeNotFound {
		return fosite.ErrInactiveToken
	}
	return err
}

// RevokeRefreshToken implements oauth2.TokenRevocationStorage. fosite calls
// it on revocation, on a replayed refresh token and on a replayed code: each
// ends the whole grant.
func (s *Store) RevokeRefreshToken(ctx context.Context, requestID string) error {
	return s.app.Connect.RevokeOAuthGrantByRequest(ctx, requestID)
}

// RevokeAccessToken implements oauth2.TokenRevocationStorage.
func (s *Store) RevokeAccessToken(ctx context.Context, requestID string) error {
	return s.app.Connect.RevokeOAuthTokens(ctx, connect.OAuthKindAccess, requestID)
}

// CreatePKCERequestSession implements pkce.PKCERequestStorage.
func (s *Store) CreatePKCERequestSession(ctx context.Context, sig string, r fosite.Requester) error {
	return s.create(ctx, connect.OAuthKindPKCE, sig, r)
}

// GetPKCERequestSession implements pkce.PKCERequestStorage.
func (s *Store) GetPKCERequestSession(ctx context.Context, sig string, session fosite.Session) (fosite.Requester, error) {
	r, _, err := s.get(ctx, connect.OAuthKindPKCE, sig, session)
	return r, err
}

// DeletePKCERequestSession implements pkce.PKCERequestStorage.
func (s *Store) DeletePKCERequestSession(ctx context.Context, sig string) error {
	return s.app.Connect.DeleteOAuthToken(ctx, connect.OAuthKindPKCE, sig)
}

// secretFormFields are never stored with a request's form.
var secretFormFields = map[string]bool{"client_secret": true, "code_verifier": true, "code": true, "refresh_token": true}

// errNoGrant refuses to store a token whose session names no grant.
var errNoGrant = errors.New("oauth: request without a grant")

// create stores one token record of the request r.
func (s *Store) create(ctx context.Context, kind connect.OAuthTokenKind, sig string, r fosite.Requester) error {
	sess := sessionOf(r)
	if sess.GrantID == "" {
		return errNoGrant
	}
	form := url.Values{}
	for k, v := range r.GetRequestForm() {
		if !secretFormFields[k] {
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
	return s.app.Connect.CreateOAuthToken(ctx, connect.OAuthToken{
		Kind: kind, Signature: sig, RequestID: r.GetID(), GrantID: sess.GrantID, ClientID: r.GetClient().GetID(),
		RequestedAt: r.GetRequestedAt(), Scopes: r.GetRequestedScopes(), GrantedScopes: r.GetGrantedScopes(),
		Form: formJSON, Session: sessJSON,
	})
}

// tokenTypes are the fosite token types whose expiry a record of each kind keeps.
var tokenTypes = map[connect.OAuthTokenKind]fosite.TokenType{
	connect.OAuthKindCode:    fosite.AuthorizeCode,
	connect.OAuthKindAccess:  fosite.AccessToken,
	connect.OAuthKindRefresh: fosite.RefreshToken,
}

// get loads a token record and rebuilds its request; a token of an ended
// grant is not found (core.App.OAuthTokenBySignature). The session's expiry
// of the token's own type is the record's, on the App's clock, which the
// token strategy compares with the App's clock.
func (s *Store) get(ctx context.Context, kind connect.OAuthTokenKind, sig string, session fosite.Session) (fosite.Requester, bool, error) {
	t, err := s.app.Connect.OAuthTokenBySignature(ctx, kind, sig)
	if core.ErrorCode(err) == core.CodeNotFound {
		return nil, false, fosite.ErrNotFound
	}
	if err != nil {
		return nil, false, err
	}
	client, err := s.GetClient(ctx, t.ClientID)
	if err != nil {
		return nil, false, err
	}
	if session == nil {
		session = &Session{}
	}
	if err := json.Unmarshal(t.Session, session); err != nil {
		return nil, false, err
	}
	if tt, ok := tokenTypes[kind]; ok {
		session.SetExpiresAt(tt, t.ExpiresAt)
	}
	var form url.Values
	if err := json.Unmarshal(t.Form, &form); err != nil {
		return nil, false, err
	}
	r := &fosite.Request{
		ID: t.RequestID, RequestedAt: t.RequestedAt, Client: client,
		RequestedScope: t.Scopes, GrantedScope: t.GrantedScopes,
		Form: form, Session: session,
	}
	return r, t.Active, nil
}
