package connect_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/connect"
	"github.com/giftwell/giftwell/internal/apptest"
)

// grantWithRefreshToken makes a grant and one refresh token of the request
// "req-1" with the signature "refresh-1".
func grantWithRefreshToken(t *testing.T) (oauthSetup, connect.OAuthGrant) {
	t.Helper()
	s := newOAuthSetup(t)
	g, err := s.env.App.Connect.CreateOAuthGrant(t.Context(), s.owner, s.consent(nil))
	require.NoError(t, err)
	require.NoError(t, s.env.App.Connect.CreateOAuthToken(t.Context(), token(g, connect.OAuthKindRefresh, "refresh-1")))
	return s, g
}

func token(g connect.OAuthGrant, kind connect.OAuthTokenKind, sig string) connect.OAuthToken {
	return connect.OAuthToken{
		Kind: kind, Signature: sig, RequestID: "req-1", GrantID: g.ID, ClientID: g.ClientID,
		RequestedAt: apptest.Epoch, Scopes: []string{"gifts:read"}, GrantedScopes: []string{"gifts:read"},
		Session: []byte(`{"grant_id":"` + g.ID + `"}`),
	}
}

// TestOAuthRotationRolledBackChangesNothing: a rotation whose transaction
// is rolled back leaves the old refresh token active, stores no new token
// and does not extend the grant; inside the transaction its own changes
// show, outside they do not.
func TestOAuthRotationRolledBackChangesNothing(t *testing.T) {
	t.Parallel()
	s, g := grantWithRefreshToken(t)
	app := s.env.App
	s.env.Clock.Advance(24 * time.Hour)

	ctx, err := app.BeginTx(t.Context())
	require.NoError(t, err)
	require.NoError(t, app.Connect.RotateOAuthRefreshToken(ctx, "req-1", "refresh-1"))
	require.NoError(t, app.Connect.CreateOAuthToken(ctx, token(g, connect.OAuthKindAccess, "access-2")))
	require.NoError(t, app.Connect.CreateOAuthToken(ctx, token(g, connect.OAuthKindRefresh, "refresh-2")))

	inside, err := app.Connect.OAuthTokenBySignature(ctx, connect.OAuthKindRefresh, "refresh-1")
	require.NoError(t, err)
	require.False(t, inside.Active, "the transaction sees its own rotation")
	outside, err := app.Connect.OAuthTokenBySignature(t.Context(), connect.OAuthKindRefresh, "refresh-1")
	require.NoError(t, err)
	require.True(t, outside.Active, "nobody else sees it before commit")

	require.NoError(t, app.RollbackTx(ctx))

	old, err := app.Connect.OAuthTokenBySignature(t.Context(), connect.OAuthKindRefresh, "refresh-1")
	require.NoError(t, err)
	require.True(t, old.Active, "the old refresh token still works")
	_, err = app.Connect.OAuthTokenBySignature(t.Context(), connect.OAuthKindRefresh, "refresh-2")
	require.Equal(t, core.CodeNotFound, core.ErrorCode(err))
	_, err = app.Connect.OAuthTokenBySignature(t.Context(), connect.OAuthKindAccess, "access-2")
	require.Equal(t, core.CodeNotFound, core.ErrorCode(err))
	stored, err := app.Connect.OAuthGrantByID(t.Context(), g.ID)
	require.NoError(t, err)
	require.Equal(t, g.ExpiresAt, stored.ExpiresAt, "the grant was not extended")

	// The context no longer joins the ended transaction.
	_, err = app.Connect.OAuthTokenBySignature(ctx, connect.OAuthKindRefresh, "refresh-1")
	require.NoError(t, err)
	require.NoError(t, app.RollbackTx(ctx), "rolling back twice is harmless")
}

func TestOAuthRotationCommitted(t *testing.T) {
	t.Parallel()
	s, g := grantWithRefreshToken(t)
	app := s.env.App
	s.env.Clock.Advance(24 * time.Hour)

	ctx, err := app.BeginTx(t.Context())
	require.NoError(t, err)
	require.NoError(t, app.Connect.RotateOAuthRefreshToken(ctx, "req-1", "refresh-1"))
	require.NoError(t, app.Connect.CreateOAuthToken(ctx, token(g, connect.OAuthKindRefresh, "refresh-2")))
	require.NoError(t, app.CommitTx(ctx))
	require.NoError(t, app.RollbackTx(ctx), "fosite rolls back after a failed commit; after a good one it is a no-op")

	old, err := app.Connect.OAuthTokenBySignature(t.Context(), connect.OAuthKindRefresh, "refresh-1")
	require.NoError(t, err)
	require.False(t, old.Active, "a used refresh token stays, inactive, so that a replay is recognised")
	fresh, err := app.Connect.OAuthTokenBySignature(t.Context(), connect.OAuthKindRefresh, "refresh-2")
	require.NoError(t, err)
	require.True(t, fresh.Active)
	require.Equal(t, apptest.Epoch.Add(24*time.Hour+connect.OAuthGrantIdleLifetime), fresh.ExpiresAt)
	stored, err := app.Connect.OAuthGrantByID(t.Context(), g.ID)
	require.NoError(t, err)
	require.Equal(t, apptest.Epoch.Add(24*time.Hour+connect.OAuthGrantIdleLifetime), stored.ExpiresAt, "a new refresh token extends the grant")

	err = app.Connect.RotateOAuthRefreshToken(t.Context(), "req-1", "refresh-1")
	require.Equal(t, core.CodeNotFound, core.ErrorCode(err), "a used refresh token does not rotate again")
	require.Equal(t, core.CodeInternal, core.ErrorCode(app.CommitTx(t.Context())), "no transaction to commit")
}

// TestOAuthTokenOfEndedGrant: an ended grant's active tokens are not found;
// a used one still is, so that its replay is recognised.
func TestOAuthTokenOfEndedGrant(t *testing.T) {
	t.Parallel()
	s, g := grantWithRefreshToken(t)
	app := s.env.App
	require.NoError(t, app.Connect.CreateOAuthToken(t.Context(), token(g, connect.OAuthKindCode, "code-1")))
	require.NoError(t, app.Connect.UseOAuthToken(t.Context(), connect.OAuthKindCode, "code-1"))
	require.Equal(t, core.CodeNotFound, core.ErrorCode(app.Connect.UseOAuthToken(t.Context(), connect.OAuthKindCode, "code-1")), "a code is used once")

	require.NoError(t, app.Connect.DisconnectApp(t.Context(), s.owner, g.ID))
	_, err := app.Connect.OAuthTokenBySignature(t.Context(), connect.OAuthKindRefresh, "refresh-1")
	require.Equal(t, core.CodeNotFound, core.ErrorCode(err))
	used, err := app.Connect.OAuthTokenBySignature(t.Context(), connect.OAuthKindCode, "code-1")
	require.NoError(t, err)
	require.False(t, used.Active)
}
