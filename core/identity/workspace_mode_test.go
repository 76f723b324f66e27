package identity_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestEnableLive(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	token, owner := env.SignIn(t, env.OwnerEmail)
	require.Equal(t, core.ModeTest, owner.Mode)

	// Test funds first, so that the live balance is visibly another one.
	session, err := env.App.Ledger.CreateBalanceTopup(ctx, owner, ledger.TopupParams{Cents: 5_000, IdempotencyKey: "enable-live-1"})
	require.NoError(t, err)
	require.NoError(t, env.App.Ledger.CompleteTopup(ctx, session.SessionID))
	key, err := env.App.Connect.Authenticate(ctx, env.OwnerKey)
	require.NoError(t, err)
	b, err := env.App.Approvals.Balance(ctx, key)
	require.NoError(t, err)
	require.Equal(t, ledger.Balance{Cents: 5_000, Mode: core.ModeTest, TopUpURL: env.SiteURL + "/balance"}, b)

	got, err := env.App.Identity.EnableLive(ctx, env.WorkspaceID)
	require.NoError(t, err)
	require.Equal(t, identity.WorkspaceModeChange{WorkspaceID: env.WorkspaceID, Name: got.Name, Mode: core.ModeLive, Changed: true}, got)
	require.NotEmpty(t, got.Name)

	// The next request of every credential is live: nothing caches the mode.
	key, err = env.App.Connect.Authenticate(ctx, env.OwnerKey)
	require.NoError(t, err)
	require.Equal(t, core.ModeLive, key.Mode)
	sessionP, err := env.App.Identity.AuthenticateSession(ctx, token)
	require.NoError(t, err)
	require.Equal(t, core.ModeLive, sessionP.Mode, "a session signed in before the switch")
	b, err = env.App.Approvals.Balance(ctx, key)
	require.NoError(t, err)
	require.Equal(t, ledger.Balance{Cents: 0, Mode: core.ModeLive, TopUpURL: env.SiteURL + "/balance"}, b, "live has its own zero balance")
	who, err := env.App.Identity.Session(ctx, sessionP)
	require.NoError(t, err)
	require.Equal(t, core.ModeLive, who.WorkspaceMode)
	require.True(t, who.LiveEnabled)

	// Again: idempotent.
	again, err := env.App.Identity.EnableLive(ctx, env.WorkspaceID)
	require.NoError(t, err)
	require.Equal(t, identity.WorkspaceModeChange{WorkspaceID: env.WorkspaceID, Name: got.Name, Mode: core.ModeLive, Changed: false}, again)

	// Other workspaces are untouched.
	other := apptest.NewWorkspace(t, env.App, apptest.WorkspaceOptions{})
	otherKey, err := env.App.Connect.Authenticate(ctx, other.OwnerKey)
	require.NoError(t, err)
	require.Equal(t, core.ModeTest, otherKey.Mode)

	_, err = env.App.Identity.EnableLive(ctx, "ws_nope")
	e := apptest.RequireCode(t, err, core.CodeNotFound)
	require.Equal(t, []string{"workspace"}, e.Fields)
	demo := apptest.NewWorkspace(t, env.App, apptest.WorkspaceOptions{Demo: true})
	_, err = env.App.Identity.EnableLive(ctx, demo.WorkspaceID)
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
}
