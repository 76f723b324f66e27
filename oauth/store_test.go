package oauth_test

import (
	"context"
	"net/url"
	"testing"

	"github.com/ory/fosite"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/connect"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/oauth"
)

// storeSetup is a Store over an Env with a public client and a grant of
// the owner's.
type storeSetup struct {
	env    *apptest.Env
	store  *oauth.Store
	client connect.OAuthClient
	grant  connect.OAuthGrant
}

func newStoreSetup(t *testing.T) storeSetup {
	t.Helper()
	env := apptest.New(t, apptest.WithSiteURL("https://gifts.example.com"))
	c, err := env.App.Connect.RegisterOAuthClient(t.Context(), connect.OAuthClientRegistration{
		RedirectURIs: []string{"http://127.0.0.1/cb"}, TokenEndpointAuthMethod: connect.AuthMethodNone,
	}, "192.0.2.20")
	require.NoError(t, err)
	_, owner := env.SignIn(t, env.OwnerEmail)
	g, err := env.App.Connect.CreateOAuthGrant(t.Context(), owner, connect.OAuthConsent{
		ClientID: c.ClientID, Resources: []string{env.App.Config.MCPURL()}, Requested: []string{"gifts:read"},
	})
	require.NoError(t, err)
	return storeSetup{env: env, store: oauth.NewStore(env.App), client: c, grant: g}
}

// request is a fosite request of the setup's grant.
func (s storeSetup) request(id string) *fosite.Request {
	return &fosite.Request{
		ID: id, RequestedAt: s.env.Clock.Now(), Client: &oauth.Client{OAuthClient: s.client},
		RequestedScope: fosite.Arguments{"gifts:read"}, GrantedScope: fosite.Arguments{"gifts:read"},
		Form:    url.Values{"redirect_uri": {"http://127.0.0.1/cb"}, "code_verifier": {"secret-verifier"}, "refresh_token": {"mco_refresh_x"}},
		Session: &oauth.Session{GrantID: s.grant.ID, WorkspaceID: s.grant.WorkspaceID, UserID: s.grant.UserID},
	}
}

// TestStoreBehavesAsFositesMemoryStore: unknown → ErrNotFound, a used code
// → ErrInvalidatedAuthorizeCode with its request, a used refresh token →
// ErrInactiveToken with its request.
func TestStoreBehavesAsFositesMemoryStore(t *testing.T) {
	t.Parallel()
	s := newStoreSetup(t)
	ctx := t.Context()
	st := s.store

	_, err := st.GetClient(ctx, "oac_unknown")
	require.ErrorIs(t, err, fosite.ErrNotFound)
	for _, get := range []func(context.Context, string, fosite.Session) (fosite.Requester, error){
		st.GetAuthorizeCodeSession, st.GetAccessTokenSession, st.GetRefreshTokenSession, st.GetPKCERequestSession,
	} {
		_, err := get(ctx, "unknown", &oauth.Session{})
		require.ErrorIs(t, err, fosite.ErrNotFound)
	}

	require.NoError(t, st.CreateAuthorizeCodeSession(ctx, "code-1", s.request("req-1")))
	r, err := st.GetAuthorizeCodeSession(ctx, "code-1", &oauth.Session{})
	require.NoError(t, err)
	require.Equal(t, "req-1", r.GetID())
	require.Equal(t, s.client.ClientID, r.GetClient().GetID())
	require.Equal(t, s.grant.ID, r.GetSession().(*oauth.Session).GrantID)
	require.Equal(t, "http://127.0.0.1/cb", r.GetRequestForm().Get("redirect_uri"))
	require.Empty(t, r.GetRequestForm().Get("code_verifier"), "secrets are never stored with the form")
	require.Empty(t, r.GetRequestForm().Get("refresh_token"))
	require.Equal(t, s.env.Clock.Now().Add(connect.OAuthCodeLifetime), r.GetSession().GetExpiresAt(fosite.AuthorizeCode),
		"the session carries the record's expiry, on the App's clock")

	require.NoError(t, st.InvalidateAuthorizeCodeSession(ctx, "code-1"))
	require.ErrorIs(t, st.InvalidateAuthorizeCodeSession(ctx, "code-1"), fosite.ErrInvalidatedAuthorizeCode, "of two redemptions one wins")
	r, err = st.GetAuthorizeCodeSession(ctx, "code-1", &oauth.Session{})
	require.ErrorIs(t, err, fosite.ErrInvalidatedAuthorizeCode)
	require.NotNil(t, r, "a used code comes back with its request")
	require.Equal(t, "req-1", r.GetID())

	require.NoError(t, st.CreateAccessTokenSession(ctx, "access-1", s.request("req-1")))
	require.NoError(t, st.CreateRefreshTokenSession(ctx, "refresh-1", "access-1", s.request("req-1")))
	require.NoError(t, st.RotateRefreshToken(ctx, "req-1", "refresh-1"))
	require.ErrorIs(t, st.RotateRefreshToken(ctx, "req-1", "refresh-1"), fosite.ErrInactiveToken)
	r, err = st.GetRefreshTokenSession(ctx, "refresh-1", &oauth.Session{})
	require.ErrorIs(t, err, fosite.ErrInactiveToken)
	require.NotNil(t, r, "a used refresh token comes back with its request")
	_, err = st.GetAccessTokenSession(ctx, "access-1", &oauth.Session{})
	require.ErrorIs(t, err, fosite.ErrNotFound, "rotation ends the request's access tokens")

	require.NoError(t, st.CreatePKCERequestSession(ctx, "pkce-1", s.request("req-1")))
	_, err = st.GetPKCERequestSession(ctx, "pkce-1", &oauth.Session{})
	require.NoError(t, err)
	require.NoError(t, st.DeletePKCERequestSession(ctx, "pkce-1"))
	_, err = st.GetPKCERequestSession(ctx, "pkce-1", &oauth.Session{})
	require.ErrorIs(t, err, fosite.ErrNotFound)

	require.Error(t, st.CreateAccessTokenSession(ctx, "access-x", &fosite.Request{ID: "req-x", Client: &oauth.Client{OAuthClient: s.client}, Session: &oauth.Session{}}),
		"a token without a grant is refused")
}

// TestStoreRollbackKeepsTheOldRefreshToken: fosite's rotation steps run in
// the store's transaction; rolled back, the old refresh token still works
// and none of the new tokens exist.
func TestStoreRollbackKeepsTheOldRefreshToken(t *testing.T) {
	t.Parallel()
	s := newStoreSetup(t)
	st := s.store
	require.NoError(t, st.CreateAccessTokenSession(t.Context(), "access-1", s.request("req-1")))
	require.NoError(t, st.CreateRefreshTokenSession(t.Context(), "refresh-1", "access-1", s.request("req-1")))

	ctx, err := st.BeginTX(t.Context())
	require.NoError(t, err)
	require.NoError(t, st.RotateRefreshToken(ctx, "req-1", "refresh-1"))
	require.NoError(t, st.CreateAccessTokenSession(ctx, "access-2", s.request("req-1")))
	require.NoError(t, st.CreateRefreshTokenSession(ctx, "refresh-2", "access-2", s.request("req-1")))
	require.NoError(t, st.Rollback(ctx))

	_, err = st.GetRefreshTokenSession(t.Context(), "refresh-1", &oauth.Session{})
	require.NoError(t, err, "the old refresh token is still active")
	_, err = st.GetAccessTokenSession(t.Context(), "access-1", &oauth.Session{})
	require.NoError(t, err, "and so is its access token")
	_, err = st.GetRefreshTokenSession(t.Context(), "refresh-2", &oauth.Session{})
	require.ErrorIs(t, err, fosite.ErrNotFound)
	_, err = st.GetAccessTokenSession(t.Context(), "access-2", &oauth.Session{})
	require.ErrorIs(t, err, fosite.ErrNotFound)

	ctx, err = st.BeginTX(t.Context())
	require.NoError(t, err)
	require.NoError(t, st.RotateRefreshToken(ctx, "req-1", "refresh-1"))
	require.NoError(t, st.CreateRefreshTokenSession(ctx, "refresh-2", "access-2", s.request("req-1")))
	require.NoError(t, st.Commit(ctx))
	_, err = st.GetRefreshTokenSession(t.Context(), "refresh-1", &oauth.Session{})
	require.ErrorIs(t, err, fosite.ErrInactiveToken)
	_, err = st.GetRefreshTokenSession(t.Context(), "refresh-2", &oauth.Session{})
	require.NoError(t, err)
}
